;;; sudoku-mode.el --- Major mode for .sudoku puzzle files, with sudoku-lsp via eglot  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "29.1"))
;; Keywords: games, languages
;; URL: https://github.com/sudoku-lsp/sudoku-lsp
;; SPDX-License-Identifier: MIT OR Apache-2.0

;;; Commentary:

;; `sudoku-mode' highlights .sudoku puzzles (comments, `# key: value' metadata, given digits,
;; empty marks, box borders) and registers the sudoku-lsp language server with eglot, so that
;; `M-x eglot' (or `eglot-ensure' in `sudoku-mode-hook') gives live conflicts through flymake,
;; pencil marks in eldoc, and code actions.  `sudoku-solve' fills the puzzle at point.
;;
;;   (add-to-list 'load-path "/path/to/sudoku-lsp/editors/emacs")
;;   (require 'sudoku-mode)
;;   (add-hook 'sudoku-mode-hook #'eglot-ensure)

;;; Code:

(defgroup sudoku nil
  "Sudoku puzzle files and the sudoku-lsp language server."
  :group 'languages
  :prefix "sudoku-")

(defcustom sudoku-lsp-program "sudoku-lsp"
  "The sudoku-lsp executable: a name on `exec-path' or an absolute file name."
  :type 'string)

(defcustom sudoku-lsp-arguments nil
  "Extra arguments for `sudoku-lsp-program' (none needed: it serves LSP on stdio)."
  :type '(repeat string))

(defface sudoku-given-face '((t :inherit font-lock-constant-face :weight bold))
  "Face for given digits.")

(defface sudoku-empty-face '((t :inherit shadow))
  "Face for empty marks (`.', `0', `_').")

(defface sudoku-border-face '((t :inherit font-lock-comment-delimiter-face))
  "Face for box borders and `|' separators.")

(defconst sudoku--metadata-keys '("title" "author" "source" "difficulty" "variant" "size"))

(defvar sudoku-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\r ">" table)
    (modify-syntax-entry ?| "." table)
    (modify-syntax-entry ?- "." table)
    (modify-syntax-entry ?+ "." table)
    (modify-syntax-entry ?. "_" table)
    (modify-syntax-entry ?_ "_" table)
    table)
  "Syntax table of `sudoku-mode': `#' starts a comment to the end of the line.")

(defvar sudoku-font-lock-keywords
  `(;; `# key: value' metadata, drawn over the comment face; known keys (the next rule) win.
    ("^\\s-*#\\s-*\\([A-Za-z][A-Za-z0-9_-]*\\)\\s-*:" (1 font-lock-variable-name-face t))
    (,(concat "^\\s-*#\\s-*\\(" (regexp-opt sudoku--metadata-keys) "\\)\\s-*\\(:\\)\\s-*\\(.*?\\)\\s-*$")
     (1 font-lock-keyword-face t) (2 font-lock-comment-delimiter-face t) (3 font-lock-string-face t))
    ;; Box borders: only - + | = * : . ' and spaces, with at least three - or =.
    ("^\\([-+|=*:.' \t]*[-=]\\)\\{3\\}[-+|=*:.' \t]*$" . 'sudoku-border-face)
    ("|" . 'sudoku-border-face)
    ("[1-9A-Za-z]" . 'sudoku-given-face)
    ("[._0]" . 'sudoku-empty-face))
  "Highlighting of `sudoku-mode'.  Comments come from the syntax table.")

;;;###autoload
(define-derived-mode sudoku-mode prog-mode "Sudoku"
  "Major mode for .sudoku puzzle files.
Start the language server with \\[eglot]; solve the puzzle at point with \\[sudoku-solve].

\\{sudoku-mode-map}"
  :syntax-table sudoku-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+\\s-*")
  (setq-local comment-end "")
  (setq-local font-lock-defaults '(sudoku-font-lock-keywords))
  (setq-local indent-tabs-mode nil)
  (setq-local truncate-lines t))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.sudoku\\'" . sudoku-mode))

(defun sudoku--server-contact (&rest _)
  "The command that starts sudoku-lsp, for `eglot-server-programs'."
  (cons sudoku-lsp-program sudoku-lsp-arguments))

;;;###autoload
(defvar eglot-server-programs)
;;;###autoload
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(sudoku-mode . sudoku--server-contact)))

(declare-function eglot-current-server "eglot")
(declare-function eglot-code-actions "eglot")
(declare-function eglot-execute "eglot")

(defun sudoku--apply-action (title-regexp)
  "Apply the server's code action at point whose title matches TITLE-REGEXP."
  (let* ((server (or (eglot-current-server)
                     (user-error "Sudoku: no language server; start one with M-x eglot")))
         (actions (eglot-code-actions (point) (point) nil nil))
         (action (seq-find (lambda (a)
                             (and (string-match-p title-regexp (plist-get a :title))
                                  (not (plist-get a :disabled))))
                           actions)))
    (if action
        (eglot-execute server action)
      (user-error "Sudoku: nothing to do here; place point inside a puzzle that has a solution"))))

(defun sudoku-solve ()
  "Fill every empty cell of the puzzle at point with its solution (sudoku-lsp)."
  (interactive)
  (sudoku--apply-action "\\`Solve puzzle"))

(defun sudoku-fill-forced-cells ()
  "Fill every cell that propagation forces in the puzzle at point (sudoku-lsp)."
  (interactive)
  (sudoku--apply-action "\\`Fill all forced cells"))

(defconst sudoku--hint-titles
  ["Hint: where to look" "Hint: which technique" "Hint: the whole step"]
  "The titles of the server's hint code actions, by level.")

(defun sudoku-hint (&optional level)
  "Show the next step of the puzzle at point (sudoku-lsp).
LEVEL 1 (the default) says where to look, 2 (one \\[universal-argument])
which technique, 3 (two) the whole step.  The server shows it as a message."
  (interactive
   (let ((arg current-prefix-arg))
     (list (cond ((null arg) 1)
                 ((consp arg) (if (>= (car arg) 16) 3 2))
                 (t (max 1 (min 3 (prefix-numeric-value arg))))))))
  (let ((title (aref sudoku--hint-titles (1- (max 1 (min 3 (or level 1)))))))
    (sudoku--apply-action (concat "\\`" (regexp-quote title) "\\'"))))

(defun sudoku-next-step ()
  "Write the placement of the puzzle's next step into the buffer (sudoku-lsp)."
  (interactive)
  (sudoku--apply-action "\\`Apply next step"))

(define-key sudoku-mode-map (kbd "C-c C-s") #'sudoku-solve)
(define-key sudoku-mode-map (kbd "C-c C-f") #'sudoku-fill-forced-cells)
(define-key sudoku-mode-map (kbd "C-c C-e") #'sudoku-hint)
(define-key sudoku-mode-map (kbd "C-c C-n") #'sudoku-next-step)

(provide 'sudoku-mode)
;;; sudoku-mode.el ends here

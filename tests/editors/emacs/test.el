;;; test.el --- Drives Emacs 30 in batch: sudoku-mode, eglot, flymake, hover, sudoku-solve, completion, imenu, xref, formatting  -*- lexical-binding: t; -*-
;; Run by tests/editors/emacs.sh: emacs --batch -Q -l tests/editors/emacs/test.el
(require 'cl-lib)
(defvar sudoku-test-failures 0)
(defconst sudoku-test-fixtures (getenv "FIXTURES"))
(defconst sudoku-test-timeout 20)

(defun sudoku-test-check (ok what &optional detail)
  (princ (format "  %s %s%s\n" (if ok "ok  " "FAIL") what
                 (if (and (not ok) detail) (format ": %s" detail) "")))
  (unless ok (cl-incf sudoku-test-failures))
  ok)

(defun sudoku-test-wait (pred)
  "Pump the server's output until PRED is non-nil or the timeout passes; return PRED's value."
  (let ((end (+ (float-time) sudoku-test-timeout)) value)
    (while (and (not (setq value (funcall pred))) (< (float-time) end))
      (accept-process-output nil 0.1)
      (when (bound-and-true-p flymake-mode) (flymake-start)))
    value))

(add-to-list 'load-path (expand-file-name "../../../editors/emacs" (file-name-directory load-file-name)))
(require 'sudoku-mode)
(require 'eglot)
;; What a user writes in init.el (the binary under test is not on PATH).
(setq sudoku-lsp-program (getenv "SUDOKU_LSP"))
(setq eglot-sync-connect t
      eglot-events-buffer-config '(:size 2000000 :format full))

(defun sudoku-test-open (name)
  (find-file (expand-file-name name sudoku-test-fixtures))
  ;; `eglot-ensure' waits for a command loop that --batch never runs: connect directly, once
  ;; (a second file of the same project joins the running server when it is visited).
  (unless (eglot-current-server)
    (apply #'eglot (eglot--guess-contact)))
  (sudoku-test-check (eglot-current-server) (format "%s: eglot connected to sudoku-lsp" name)))

(defvar sudoku-test-messages nil "What eglot said in the echo area, newest first.")
(advice-add 'eglot--message :before
            (lambda (format &rest args) (push (apply #'format format args) sudoku-test-messages)))

(defun sudoku-test-message (prefix)
  "The first message eglot showed that contains PREFIX."
  (cl-find-if (lambda (m) (string-match-p (regexp-quote prefix) m)) sudoku-test-messages))

(defun sudoku-test-line-col (pos)
  (save-excursion (goto-char pos) (cons (line-number-at-pos) (current-column))))

(defun sudoku-test-run ()
  ;; Mode, comments and font-lock.
  (find-file (expand-file-name "conflict.sudoku" sudoku-test-fixtures))
  (sudoku-test-check (eq major-mode 'sudoku-mode) "auto-mode-alist opens .sudoku in sudoku-mode" major-mode)
  (sudoku-test-check (equal comment-start "# ") "comment-start is \"# \"")
  (font-lock-ensure)
  (goto-char (point-min)) (forward-line 2) (forward-char 4)
  (sudoku-test-check (eq (get-text-property (point) 'face) 'sudoku-given-face) "a given digit has sudoku-given-face"
                     (get-text-property (point) 'face))
  (goto-char (point-min)) (forward-line 1) (forward-char 2)
  (sudoku-test-check (eq (get-text-property (point) 'face) 'font-lock-keyword-face) "the metadata key \"title\" is a keyword"
                     (get-text-property (point) 'face))
  (goto-char (point-min)) (forward-line 5)
  (sudoku-test-check (eq (get-text-property (point) 'face) 'sudoku-border-face) "a box border has sudoku-border-face"
                     (get-text-property (point) 'face))
  (sudoku-test-check (nth 4 (syntax-ppss (+ (point-min) 5))) "`#' starts a comment (syntax table)")

  ;; Diagnostics through flymake: the two 2s of row A, at A5 (line 3, column 9) and A9 (column 18).
  (when (sudoku-test-open "conflict.sudoku")
    (let ((diags (sudoku-test-wait (lambda () (and (>= (length (flymake-diagnostics)) 2) (flymake-diagnostics))))))
      (dolist (d diags)
        (princ (format "       flymake %S-%S %s %s\n" (sudoku-test-line-col (flymake-diagnostic-beg d))
                       (sudoku-test-line-col (flymake-diagnostic-end d)) (flymake-diagnostic-type d)
                       (flymake-diagnostic-text d))))
      (dolist (col '(9 18))
        (let ((d (cl-find-if (lambda (d) (equal (sudoku-test-line-col (flymake-diagnostic-beg d)) (cons 3 col))) diags)))
          (when (sudoku-test-check d (format "flymake diagnostic at line 3, column %d" col))
            (sudoku-test-check (equal (sudoku-test-line-col (flymake-diagnostic-end d)) (cons 3 (1+ col)))
                               "  ... covering exactly the cell")
            (sudoku-test-check (eq (flymake-diagnostic-type d) 'eglot-error) "  ... is an error" (flymake-diagnostic-type d))
            (sudoku-test-check (string-match-p "row A" (flymake-diagnostic-text d)) "  ... names row A"
                               (flymake-diagnostic-text d)))))))

  ;; Hover on A8 (line 4, column 9) of the easy puzzle: a direct textDocument/hover request.
  (when (sudoku-test-open "solve.sudoku")
    (goto-char (point-min)) (forward-line 3) (forward-char 9)
    (let* ((reply (jsonrpc-request (eglot-current-server) :textDocument/hover (eglot--TextDocumentPositionParams)))
           (contents (plist-get reply :contents))
           (text (if (stringp contents) contents (or (plist-get contents :value) (format "%S" contents)))))
      (princ (format "       hover: %s\n" (truncate-string-to-width (replace-regexp-in-string "\n" " | " text) 200)))
      (sudoku-test-check (and (string-match "{[^}]*}" text) (equal (match-string 0 text) "{5, 7, 8, 9}"))
                         "hover on A8 shows the pencil marks {5, 7, 8, 9}" text))
    ;; And eldoc shows it too, through eglot's hover function.
    (let (eldoc-text)
      (eglot-hover-eldoc-function (lambda (doc &rest _) (setq eldoc-text doc)))
      (sudoku-test-wait (lambda () eldoc-text))
      (sudoku-test-check (and eldoc-text (string-match-p "{5, 7, 8, 9}" eldoc-text)) "eldoc's hover shows {5, 7, 8, 9}"
                         eldoc-text))
    ;; The hints: code actions that run the server's `sudoku.hint' command, which answers with
    ;; window/showMessage (eglot has no code lenses; these are the commands the lenses run).
    (goto-char (point-min)) (forward-line 4) (forward-char 1)
    (setq sudoku-test-messages nil)
    (sudoku-hint 1)
    (sudoku-test-check (sudoku-test-wait (lambda () (sudoku-test-message "Hint 1/3: look at ")))
                       "sudoku-hint shows \"Hint 1/3: look at ...\"" sudoku-test-messages)
    (sudoku-hint 3)
    (let ((whole (sudoku-test-wait (lambda () (sudoku-test-message "Hint 3/3: ")))))
      (when (sudoku-test-check whole "sudoku-hint 3 shows the whole step" sudoku-test-messages)
        (princ (format "       %s\n" whole))))
    ;; "Apply next step": the hidden single 6 in B2 (line 5, column 1) is written in.
    (sudoku-next-step)
    (sudoku-test-check (sudoku-test-wait (lambda () (save-excursion (goto-char (point-min)) (forward-line 4)
                                                                    (looking-at-p "96\\.|"))))
                       "sudoku-next-step writes 6 into B2"
                       (save-excursion (goto-char (point-min)) (forward-line 4)
                                       (buffer-substring (point) (line-end-position))))
    ;; M-x sudoku-solve applies the "Solve puzzle" code action.
    (goto-char (point-min)) (forward-line 4) (forward-char 1)
    (sudoku-solve)
    (let ((expected (with-temp-buffer (insert-file-contents (expand-file-name "solve.solved.sudoku" sudoku-test-fixtures))
                                      (buffer-string))))
      (sudoku-test-wait (lambda () (equal (buffer-string) expected)))
      (sudoku-test-check (equal (buffer-string) expected) "sudoku-solve leaves the solved grid in the buffer"
                         (concat "\n" (buffer-string)))
    ;; The Solve lens's command, run as eglot runs a command: the server asks eglot to apply
    ;; the solution (workspace/applyEdit).
    (revert-buffer t t)
    (sudoku-test-wait (lambda () (string-match-p "\\.\\.3|" (buffer-string))))
    (eglot-execute (eglot-current-server)
                   (list :title "Solve" :command "sudoku.solve"
                         :arguments (vector (list :uri (plist-get (eglot--TextDocumentIdentifier) :uri)
                                                  :position (list :line 1 :character 0)))))
    (sudoku-test-wait (lambda () (equal (buffer-string) expected)))
    (sudoku-test-check (equal (buffer-string) expected) "the sudoku.solve command leaves the solved grid in the buffer"
                       (concat "\n" (buffer-string))))
    (set-buffer-modified-p nil)

    ;; Completion in the empty cell A1 (line 4, column 0), through eglot's completion-at-point:
    ;; the digits that fit, 4 (the solution's) among them.
    (revert-buffer t t)
    (sudoku-test-wait (lambda () (string-match-p "\\.\\.3|" (buffer-string))))
    (goto-char (point-min)) (forward-line 3)
    (let* ((capf (eglot-completion-at-point))
           (labels (and capf (all-completions "" (nth 2 capf)))))
      (sudoku-test-check (and (member "4" labels) (< (length labels) 9))
                         "completion-at-point in A1 offers the digits that fit" labels)))

  ;; The outline and go to definition, on the conflict (eglot through imenu and xref).
  (when (sudoku-test-open "conflict.sudoku")
    (let* ((index (imenu--make-index-alist t))
           (names (mapcar (lambda (entry) (format "%s" (car entry))) index)))
      (sudoku-test-check (cl-some (lambda (name) (string-match-p "Row A conflict" name)) names)
                         "imenu lists the puzzle by its title (document symbols)" names))
    ;; Definition of the 2 at A9 (line 3, column 18): the other 2, at A5 (column 9).
    (goto-char (point-min)) (forward-line 2) (forward-char 18)
    (let* ((identifier (xref-backend-identifier-at-point 'eglot))
           (items (xref-backend-definitions 'eglot identifier))
           (places (mapcar (lambda (item)
                             (let ((location (xref-item-location item)))
                               (cons (xref-location-line location) (xref-file-location-column location))))
                           items)))
      (sudoku-test-check (member '(3 . 9) places)
                         "xref: the definition of the 2 at A9 is the 2 at A5" places)))

  ;; Formatting: eglot-format-buffer lays out a loosely written grid.
  (when (sudoku-test-open "format.sudoku")
    (eglot-format-buffer)
    (let ((expected (with-temp-buffer
                      (insert-file-contents (expand-file-name "format.formatted.sudoku" sudoku-test-fixtures))
                      (buffer-string))))
      (sudoku-test-check (equal (buffer-string) expected) "eglot-format-buffer writes the grid layout"
                         (concat "\n" (buffer-string))))
    (set-buffer-modified-p nil)))

(condition-case err
    (sudoku-test-run)
  (error (sudoku-test-check nil "the test ran to the end" (error-message-string err))))
(when (> sudoku-test-failures 0)
  (princ "--- *Messages*\n")
  (princ (with-current-buffer "*Messages*" (buffer-string)))
  (dolist (buf (buffer-list))
    (when (string-match-p "EGLOT.*events" (buffer-name buf))
      (princ (format "--- %s (last 6000 characters)\n" (buffer-name buf)))
      (princ (with-current-buffer buf (buffer-substring (max (point-min) (- (point-max) 6000)) (point-max)))))))
(dolist (server (and (boundp 'eglot--servers-by-project) (hash-table-values eglot--servers-by-project)))
  (dolist (s server) (ignore-errors (eglot-shutdown s))))
(kill-emacs (if (> sudoku-test-failures 0) 1 0))

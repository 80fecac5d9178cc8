"""Checks editors/helix/languages.toml: it parses as TOML, wires `*.sudoku` to sudoku-lsp and
to the tree-sitter grammar in editors/tree-sitter-sudoku.

Helix itself cannot be installed here (not in Debian 12 or its backports), so this checks the
snippet's shape against what Helix's languages.toml expects.
"""
import sys
import tomllib

path = sys.argv[1]
failures = 0


def check(ok, what, detail=None):
    global failures
    print(f"  {'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if not ok and detail is not None else ""))
    failures += not ok


try:
    with open(path, "rb") as f:
        config = tomllib.load(f)
    check(True, f"{path} parses as TOML")
except (OSError, tomllib.TOMLDecodeError) as e:
    check(False, f"{path} parses as TOML", e)
    sys.exit(1)

servers = config.get("language-server", {})
languages = [lang for lang in config.get("language", []) if lang.get("name") == "sudoku"]
check(len(languages) == 1, "one [[language]] named sudoku", languages)
if languages:
    lang = languages[0]
    check(lang.get("file-types") == ["sudoku"], 'file-types = ["sudoku"]', lang.get("file-types"))
    check(lang.get("comment-token") == "#", 'comment-token = "#"', lang.get("comment-token"))
    check(isinstance(lang.get("scope"), str), "scope is set (Helix requires it)", lang.get("scope"))
    names = lang.get("language-servers", [])
    check(names and all(isinstance(n, str) and n in servers for n in names),
          "every language server it names is defined under [language-server]", names)
    check(lang.get("grammar", lang.get("name")) == "sudoku", 'the language uses the grammar "sudoku"',
          lang.get("grammar"))
grammars = [g for g in config.get("grammar", []) if g.get("name") == "sudoku"]
check(len(grammars) == 1, "one [[grammar]] named sudoku", grammars)
if grammars:
    source = grammars[0].get("source", {})
    where = source.get("path") or source.get("subpath") or ""
    check(("path" in source or "git" in source) and where.rstrip("/").endswith("editors/tree-sitter-sudoku"),
          "its source is a path (or a git subpath) ending in editors/tree-sitter-sudoku", source)
check(servers.get("sudoku-lsp", {}).get("command") == "sudoku-lsp", '[language-server.sudoku-lsp] command = "sudoku-lsp"',
      servers)
sys.exit(1 if failures else 0)

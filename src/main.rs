fn main() {
    std::process::exit(sudoku_lsp::cli::main());
}

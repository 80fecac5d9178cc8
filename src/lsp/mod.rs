//! The language server: a thin face over `analysis`, speaking LSP on stdio.

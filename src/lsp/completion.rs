//! Completion (`textDocument/completion`): the core's items (`analysis::completion`, shared
//! with the playground, which says what is offered where) as the protocol's.
//!
//! No trigger characters: typing `.` (an empty cell) or digits must not pop a list at every
//! cell of a one-liner; the list comes when asked for (Ctrl+Space, `<C-x><C-o>`…). Each item's
//! filter text starts with the text its edit replaces, so a client filtering on the text between
//! the edit's start and the cursor (VS Code does) keeps every item.

use tower_lsp_server::lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, TextEdit,
};

use super::view::View;
use crate::analysis::completion::{self, Item, Kind};

/// The items at a byte offset; `None` when nothing fits there.
pub fn items(view: &View, offset: usize) -> Option<Vec<CompletionItem>> {
    let line = view.line_span(offset);
    let rope = &view.snapshot.rope;
    let text = rope.get_byte_slice(line.start..line.end)?.to_string();
    let items = completion::items(view.document(), line.start, &text, offset)?;
    Some(
        items
            .into_iter()
            .map(|item| protocol_item(view, item))
            .collect(),
    )
}

fn protocol_item(view: &View, item: Item) -> CompletionItem {
    let kind = match item.kind {
        Kind::Digit | Kind::Sum => CompletionItemKind::VALUE,
        Kind::Keyword => CompletionItemKind::KEYWORD,
        Kind::Cell => CompletionItemKind::VARIABLE,
    };
    CompletionItem {
        label: item.label,
        kind: Some(kind),
        detail: item.detail,
        documentation: item.documentation.map(Documentation::String),
        sort_text: Some(item.sort),
        filter_text: Some(item.filter),
        preselect: item.preselect.then_some(true),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
            view.range(item.edit.span),
            item.edit.text,
        ))),
        ..CompletionItem::default()
    }
}

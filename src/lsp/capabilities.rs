//! `initialize`: what the client can do (read into the session's `ClientConfig`), its workspace
//! folders and first settings, and what the server offers in return.

use tower_lsp_server::lsp_types::*;

use super::config::ClientConfig;
use super::session::{workspace_folders, Session};
use super::{commands, diagnostics, tokens};

/// Take the client's capabilities, folders and settings; the server's capabilities.
pub async fn initialize(session: &Session, params: InitializeParams) -> InitializeResult {
    let config = session.configure(&params.capabilities);
    session.state().folders = workspace_folders(&params);
    if let Some(options) = &params.initialization_options {
        let (_, problems) = session.update_settings(options);
        for problem in problems {
            session.log(MessageType::WARNING, problem).await;
        }
    }
    InitializeResult {
        capabilities: server_capabilities(config),
        server_info: Some(ServerInfo {
            name: "sudoku-lsp".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    }
}

/// Everything the server offers; pull diagnostics only to a client that pulls and can be asked
/// to pull again (see `ClientConfig::pull_diagnostics`).
fn server_capabilities(config: ClientConfig) -> ServerCapabilities {
    let code_actions = CodeActionOptions {
        code_action_kinds: Some(vec![
            CodeActionKind::QUICKFIX,
            CodeActionKind::REFACTOR_REWRITE,
        ]),
        resolve_provider: Some(config.resolve_edits),
        ..CodeActionOptions::default()
    };
    ServerCapabilities {
        position_encoding: Some(config.encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions::default()),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: commands::ALL.iter().map(|c| c.to_string()).collect(),
            ..ExecuteCommandOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(code_actions)),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: tokens::legend(),
                range: Some(true),
                full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                ..SemanticTokensOptions::default()
            },
        )),
        diagnostic_provider: config.pull_diagnostics.then(|| {
            DiagnosticServerCapabilities::Options(DiagnosticOptions {
                identifier: Some(diagnostics::SOURCE.to_string()),
                inter_file_dependencies: false,
                workspace_diagnostics: true,
                ..DiagnosticOptions::default()
            })
        }),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    }
}

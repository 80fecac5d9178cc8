//! The protocol's entry: tower-lsp-server's `LanguageServer` methods and the server's own two
//! methods, each handing its message to the room of the server that owns it (`capabilities`,
//! `sync`, `query` with the answers over a view, `pull`, `token_store`, `execute`) on the
//! session they all share.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::lsp_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::session::Session;
use super::transport::{self, Malformed};
use super::view::View;
use super::{actions, commands, completion, formatting, hover, inlay, navigation, outline};
use super::{capabilities, execute, jobs, outgoing, pull, query, sync, token_store};

pub struct Backend {
    session: Arc<Session>,
}

impl Backend {
    pub fn new(
        client: Client,
        stash: outgoing::Stash,
        initialize: transport::Initialize,
    ) -> Backend {
        Backend {
            session: Arc::new(Session::new(client, stash, initialize)),
        }
    }

    /// Whether `shutdown` was received (read after the session ends, for the exit code).
    pub fn shut_down_flag(&self) -> Arc<AtomicBool> {
        self.session.shut_down.clone()
    }

    /// The answer to a message the wire guard could not pass on (see `transport`).
    pub async fn malformed(&self, params: Malformed) -> Result<()> {
        let warning = format!("malformed message: {}", params.problem);
        self.session.log(MessageType::WARNING, warning).await;
        Err(Error {
            code: ErrorCode::from(params.code),
            message: params.problem.into(),
            data: None,
        })
    }

    /// [`transport::DOCUMENT_TEXT_METHOD`]: the text and version of an open document.
    pub async fn document_text(&self, params: DocumentTextParams) -> Result<Option<DocumentText>> {
        if !std::env::var(jobs::TEST_HOOKS_VAR).is_ok_and(|v| v == "1") {
            return Err(Error::method_not_found());
        }
        let snapshot = self.session.state().documents.get(&params.uri);
        Ok(snapshot.map(|s| DocumentText {
            version: s.version,
            text: s.text(),
        }))
    }
}

#[derive(serde::Deserialize)]
pub struct DocumentTextParams {
    pub uri: Uri,
}

#[derive(serde::Serialize)]
pub struct DocumentText {
    pub version: i32,
    pub text: String,
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        Ok(capabilities::initialize(&self.session, params).await)
    }

    async fn initialized(&self, _: InitializedParams) {
        let encoding = self.session.config().encoding.kind();
        let message = format!("sudoku-lsp ready (positions in {})", encoding.as_str());
        self.session.log(MessageType::INFO, message).await;
    }

    async fn shutdown(&self) -> Result<()> {
        sync::shutdown(&self.session);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        sync::open(&self.session, params);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        sync::change(&self.session, params).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        sync::reconfigure(&self.session, params).await;
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        sync::change_folders(&self.session, params);
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let uri = params.text_document.uri;
        Ok(pull::document(&self.session, uri, params.previous_result_id).await)
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        let previous = params.previous_result_ids.into_iter();
        let previous = previous.map(|id| (id.uri.to_string(), id.value)).collect();
        let items = pull::workspace_files(&self.session, previous).await?;
        let report = WorkspaceDiagnosticReport { items };
        Ok(WorkspaceDiagnosticReportResult::Report(report))
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        sync::close(&self.session, params).await;
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let position = params.text_document_position_params.position;
        let uri = params.text_document_position_params.text_document.uri;
        let query = move |view: &View| hover::answer(view, position);
        Ok(query::run(&self.session, "hover", &uri, query).await)
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = params.text_document.uri;
        let query = |view: &View| Some(outline::symbols(view));
        Ok(query::run(&self.session, "document symbols", &uri, query).await)
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let uri = params.text_document.uri;
        let query = |view: &View| Some(outline::folding_ranges(view));
        Ok(query::run(&self.session, "folding ranges", &uri, query).await)
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        let uri = params.text_document.uri;
        let positions = params.positions;
        let query = move |view: &View| Some(outline::selection_ranges(view, &positions));
        Ok(query::run(&self.session, "selection ranges", &uri, query).await)
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let position = params.text_document_position.position;
        let uri = params.text_document_position.text_document.uri;
        let query = move |view: &View| completion::items(view, view.offset(position));
        let items = query::run(&self.session, "completion", &uri, query).await;
        Ok(items.map(CompletionResponse::Array))
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let position = params.text_document_position_params.position;
        let uri = params.text_document_position_params.text_document.uri;
        let query = move |view: &View| navigation::definition(view, view.offset(position));
        Ok(query::run(&self.session, "definition", &uri, query).await)
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let position = params.text_document_position.position;
        let uri = params.text_document_position.text_document.uri;
        let include = params.context.include_declaration;
        let query = move |view: &View| navigation::references(view, view.offset(position), include);
        Ok(query::run(&self.session, "references", &uri, query).await)
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let position = params.text_document_position_params.position;
        let uri = params.text_document_position_params.text_document.uri;
        let query = move |view: &View| navigation::highlights(view, view.offset(position));
        Ok(query::run(&self.session, "highlights", &uri, query).await)
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        // The setting as it is when the request comes, before any await.
        let mode = self.session.settings().inlay_hints;
        let (uri, range) = (params.text_document.uri, params.range);
        let query = move |view: &View| Some(inlay::hints(view, mode, range));
        Ok(query::run(&self.session, "inlay hints", &uri, query).await)
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        Ok(token_store::full(&self.session, &params.text_document.uri).await)
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let (uri, previous) = (params.text_document.uri, params.previous_result_id);
        Ok(token_store::delta(&self.session, &uri, &previous).await)
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let (uri, range) = (params.text_document.uri, params.range);
        Ok(token_store::range(&self.session, &uri, range).await)
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let (start, only) = (params.range.start, params.context.only);
        let uri = params.text_document.uri;
        let query = move |view: &View| {
            let offset = view.offset(start);
            if !view.config.resolve_edits {
                return Some(actions::at(view, offset, only.as_deref()));
            }
            let deferring = view.deferring_edits(start);
            Some(actions::at(&deferring, offset, only.as_deref()))
        };
        let actions = query::run(&self.session, "code action", &uri, query).await;
        Ok(actions.filter(|actions| !actions.is_empty()))
    }

    async fn code_action_resolve(&self, action: CodeAction) -> Result<CodeAction> {
        let Some(offered) = actions::Offered::of(&action) else {
            return Ok(action); // not one of ours to complete: nothing is missing
        };
        let (uri, title) = (offered.uri().clone(), action.title.clone());
        let work = move |view: &View| Some(actions::resolve(view, action, &offered));
        let moved = || {
            let uri = uri.as_str();
            query::content_modified(format!("{uri} changed since \"{title}\" was offered"))
        };
        match query::run(&self.session, "code action resolve", &uri, work).await {
            Some(Ok(action)) => Ok(action),
            Some(Err(actions::Unresolved::Gone)) => Err(query::request_failed(format!(
                "\"{title}\" is no longer offered in {}",
                uri.as_str()
            ))),
            Some(Err(actions::Unresolved::Moved)) | None => Err(moved()),
        }
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        let query = |view: &View| Some(commands::lenses(view));
        Ok(query::run(&self.session, "code lens", &uri, query).await)
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let style = self.session.settings().format_style;
        let (uri, options) = (params.text_document.uri, params.options);
        let work = move |view: &View| formatting::document(view, style, &options);
        query::format(&self.session, "formatting", &uri, work).await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        let style = self.session.settings().format_style;
        let (range, options) = (params.range, params.options);
        let uri = params.text_document.uri;
        let work = move |view: &View| formatting::range(view, style, range, &options);
        query::format(&self.session, "range formatting", &uri, work).await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        execute::command(&self.session, params).await
    }
}

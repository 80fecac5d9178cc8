//! `sudoku-lsp render`: a picture of each puzzle of each input, SVG or PNG, drawn by
//! `crate::render`. Exit codes as `check`'s: 0 when no input has an error, 1 when one has (its
//! findings are printed on stderr as `check` prints them; a puzzle with a conflict is still
//! drawn, its conflicts marked), 2 for a usage or I/O problem.
//!
//! Names: a file of one puzzle gives `STEM.svg` (`easy.sudoku` → `easy.svg`), a file of several
//! gives one picture per puzzle named by the line of its first row (`collection-12.svg`), `-`
//! reads standard input as `stdin`. Pictures go into `--out DIR` (the current folder by
//! default; made if missing), or with `--out -` the one picture to standard output. A file
//! already there is replaced only when it is a picture `render` made (its SVG comment or PNG
//! text chunk says so) or with `--force`: nothing else is ever overwritten. Each picture is
//! written to a temporary file beside its place and renamed there, so none is left half written.
//!
//! Inputs are read in pieces like `check`'s and each picture is written before the next is
//! drawn; the only picture held back is a file's first, until a second puzzle shows whether its
//! name takes a line number.

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use super::in_place::shortened;
use super::inputs::{self, Input};
use super::lines::LineIndex;
use super::style::{say_error, Paint};
use super::{read, report};
use crate::analysis::{check_document, Cache};
use crate::engine::Budget;
use crate::files::{kind_of, open_without_waiting};
use crate::finding::Severity;
use crate::render::{self, PngError};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PictureFormat {
    Svg,
    Png,
}

impl PictureFormat {
    fn extension(self) -> &'static str {
        match self {
            PictureFormat::Svg => "svg",
            PictureFormat::Png => "png",
        }
    }
}

/// What `render` was asked.
pub struct Options {
    pub format: PictureFormat,
    pub drawing: render::Options,
    /// The folder, or `-` for standard output.
    pub out: Option<PathBuf>,
    pub force: bool,
    pub max_nodes: u64,
    pub max_file: u64,
}

/// Where pictures go.
enum Target {
    Folder(PathBuf),
    Stdout,
}

/// Why one input's pictures stopped.
enum Halt {
    /// Said on stderr already; exit 2, go on with the next input.
    Input,
    /// Said on stderr already; exit 2, stop everything (no font, stdout closed).
    All,
}

pub fn run(args: &[String], options: &Options) -> i32 {
    let target = match options.out.as_deref() {
        Some(path) if path == Path::new("-") => Target::Stdout,
        Some(path) => Target::Folder(path.to_path_buf()),
        None => Target::Folder(PathBuf::from(".")),
    };
    let collected = inputs::collect(args);
    match &target {
        Target::Stdout => {
            if collected.inputs.len() > 1 {
                return super::fail(
                    "--out - writes one picture to standard output, and there are several \
                     inputs: name a folder with --out",
                );
            }
            if options.format == PictureFormat::Png && std::io::stdout().is_terminal() {
                return super::fail(
                    "--out - with --format png would write a PNG onto the terminal: redirect \
                     standard output to a file, or name a folder with --out",
                );
            }
        }
        Target::Folder(folder) => {
            if let Err(e) = std::fs::create_dir_all(folder) {
                return super::fail(&format!(
                    "--out {}: cannot make the folder: {e}",
                    folder.display()
                ));
            }
            if !folder.is_dir() {
                return super::fail(&format!("--out {}: not a folder", folder.display()));
            }
        }
    }
    let budget = super::node_budget(options.max_nodes);
    let mut run = Run {
        options,
        target,
        code: if collected.problems > 0 { 2 } else { 0 },
        stems: HashSet::new(),
        made: HashMap::new(),
        written: 0,
    };
    for input in &collected.inputs {
        match run.input(input, &budget) {
            Ok(()) => {}
            Err(Halt::Input) => run.code = 2,
            Err(Halt::All) => return 2,
        }
    }
    if let Target::Folder(folder) = &run.target {
        let pictures = crate::finding::plural(run.written, "picture");
        eprintln!("wrote {pictures} into {}", folder.display());
    }
    run.code
}

struct Run<'o> {
    options: &'o Options,
    target: Target,
    code: i32,
    /// The names taken by earlier inputs: two `easy.sudoku` in different folders would write
    /// the same pictures.
    stems: HashSet<OsString>,
    /// The pictures written so far, and of which puzzle (`coll.sudoku:2`): a picture of this
    /// run is never overwritten, whatever the names (`coll.sudoku` gives `coll-2.svg`, as does
    /// `coll-2.sudoku`).
    made: HashMap<Identity, String>,
    /// How many pictures were written: as many as there are now.
    written: usize,
}

/// One input's pictures as they come.
struct Naming {
    name: String,
    stem: OsString,
    /// The first picture and its line, held until a second puzzle says whether the file holds
    /// one puzzle (`easy.svg`) or several (`collection-12.svg`).
    first: Option<(usize, Vec<u8>)>,
    count: usize,
}

impl Run<'_> {
    /// Draw every puzzle of one input, naming each picture (`easy.svg`, `collection-12.svg`)
    /// once it is known whether the input holds one puzzle or several.
    // Over 80 lines: reading the input piece by piece, and each puzzle's picture, name and
    // write, share the naming state held until the second puzzle settles the names.
    fn input(&mut self, input: &Input, budget: &Budget) -> Result<(), Halt> {
        let name = input.name();
        let stem = match input {
            Input::Stdin => OsString::from("stdin"),
            Input::File(path) => path
                .file_stem()
                .map_or_else(|| OsString::from("puzzle"), OsString::from),
        };
        if matches!(self.target, Target::Folder(_)) && !self.stems.insert(stem.clone()) {
            say_error(&format!(
                "{name}: not drawn: its pictures would be named {}.* like those of an \
                 earlier input; render them into different --out folders",
                stem.to_string_lossy()
            ));
            return Err(Halt::Input);
        }
        let reader: Box<dyn Read> = input.open().map_err(|message| {
            say_error(&message);
            Halt::Input
        })?;
        let mut naming = Naming {
            name: name.clone(),
            stem,
            first: None,
            count: 0,
        };
        let mut halted: Option<Halt> = None;
        let mut errors = 0;
        let mut invalid_said = false;
        let read = read::pieces(reader, self.options.max_file, |piece| {
            if halted.is_some() {
                return;
            }
            let index = LineIndex::piece(&piece.text, piece.base, piece.first_line);
            let checked = check_document(piece.document, budget, &mut Cache::default());
            for finding in &checked.findings {
                if matches!(finding.severity, Severity::Error | Severity::Warning) {
                    errors += usize::from(finding.severity == Severity::Error);
                    eprintln!("{}", report::line(&name, &index, finding, Paint::stderr()));
                }
            }
            if let (Some((byte, _)), false) = (piece.invalid, invalid_said) {
                invalid_said = true;
                errors += 1;
                eprintln!(
                    "{name}: error: not valid UTF-8 from byte {byte} on: read with U+FFFD in \
                     place of the bad bytes"
                );
            }
            let puzzles = checked.document.puzzles.iter().zip(&checked.analyses);
            for (puzzle, analysis) in puzzles {
                let (line, column) = index.line_column(puzzle.first_row.start);
                let scene = render::draw(puzzle, analysis, &self.options.drawing);
                if let Some(problem) = scene.solution.problem() {
                    eprintln!("{name}:{line}:{column}: note: {problem}");
                }
                let svg = render::svg(&scene);
                let picture = match self.options.format {
                    PictureFormat::Svg => Ok(svg.into_bytes()),
                    PictureFormat::Png => png(&svg),
                };
                let outcome = match picture {
                    Ok(bytes) => self.picture(&mut naming, line, bytes),
                    Err(PngError::NoFont(message)) => {
                        say_error(&message);
                        Err(Halt::All)
                    }
                    Err(PngError::Render(message)) => {
                        say_error(&format!("{name}:{line}: {message}"));
                        Err(Halt::Input)
                    }
                };
                if let Err(halt) = outcome {
                    halted = Some(halt);
                    return;
                }
            }
        });
        if let Some(halt) = halted {
            return Err(halt);
        }
        // The last of a file of one puzzle: named after the file alone.
        if let Some((line, bytes)) = naming.first.take() {
            let mut file = naming.stem.clone();
            file.push(format!(".{}", self.extension()));
            self.write(&naming.name, line, &file, &bytes)?;
        }
        if let Err(stop) = read {
            say_error(&format!("{name}: {}", stop.message()));
            return Err(Halt::Input);
        }
        if naming.count == 0 && errors == 0 {
            eprintln!("{name}: warning: no puzzle found, nothing drawn");
        }
        if errors > 0 {
            self.code = self.code.max(1);
        }
        Ok(())
    }

    fn extension(&self) -> &'static str {
        self.options.format.extension()
    }

    /// One more picture of an input, at the line of its first row.
    fn picture(&mut self, naming: &mut Naming, line: usize, bytes: Vec<u8>) -> Result<(), Halt> {
        naming.count += 1;
        match naming.count {
            1 => {
                naming.first = Some((line, bytes));
                return Ok(());
            }
            2 if matches!(self.target, Target::Stdout) => {
                say_error(&format!(
                    "{}:{line}: --out - writes one picture, and this input holds \
                     several puzzles: name a folder with --out",
                    naming.name
                ));
                naming.first = None;
                return Err(Halt::Input);
            }
            2 => {
                let (first_line, first) = naming.first.take().expect("the first picture");
                let file = self.numbered(naming, first_line);
                self.write(&naming.name, first_line, &file, &first)?;
            }
            _ => {}
        }
        let file = self.numbered(naming, line);
        self.write(&naming.name, line, &file, &bytes)
    }

    /// `STEM-LINE.svg`, the stem's bytes as they are (a name need not be UTF-8).
    fn numbered(&self, naming: &Naming, line: usize) -> OsString {
        let mut file = naming.stem.clone();
        file.push(format!("-{line}.{}", self.extension()));
        file
    }

    /// Write one picture, of the puzzle at `line` of `input`, to its file (or standard output).
    fn write(&mut self, input: &str, line: usize, file: &OsStr, bytes: &[u8]) -> Result<(), Halt> {
        let folder = match &self.target {
            Target::Stdout => {
                let mut stdout = std::io::stdout().lock();
                return match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
                    Ok(()) => Ok(()),
                    Err(e) => {
                        say_error(&format!("cannot write standard output: {e}"));
                        Err(Halt::All)
                    }
                };
            }
            Target::Folder(folder) => folder.clone(),
        };
        let path = folder.join(file);
        if let Err(why) = self.may_write(&path) {
            say_error(&format!("{input}: {} {why}", path.display()));
            self.code = 2;
            return Ok(()); // the other pictures may well have free places
        }
        let mut prefix = OsString::from(".");
        prefix.push(shortened(file, 200));
        prefix.push(".");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // A picture is for others to see: the usual rights for a new file (0666 less the
        // umask), not the temporary file's private 0600.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let written = builder.tempfile_in(&folder).and_then(|mut temporary| {
            temporary.write_all(bytes)?;
            temporary.flush()?;
            let made = identity(&temporary.as_file().metadata()?);
            temporary.persist(&path).map_err(|e| e.error)?;
            Ok(made)
        });
        match written {
            Ok(made) => {
                self.made.insert(made, format!("{input}:{line}"));
                self.written += 1;
                Ok(())
            }
            Err(e) => {
                say_error(&format!("{input}: cannot write {}: {e}", path.display()));
                Err(Halt::Input)
            }
        }
    }

    /// Whether a picture may go to `path`: nothing there, or a regular file that is not a
    /// picture of this run and that render made (or `--force`). Never opens what could block.
    fn may_write(&self, path: &Path) -> Result<(), String> {
        let Ok(there) = std::fs::metadata(path) else {
            return Ok(()); // nothing there (or a dangling link, which the picture replaces)
        };
        if !there.is_file() {
            return Err(format!(
                "exists and is {}, not a picture: not replaced",
                kind_of(&there.file_type())
            ));
        }
        if let Some(drawn) = self.made.get(&identity(&there)) {
            return Err(format!(
                "is the picture of {drawn}, drawn in this run: not overwritten (its names clash \
                 with that input's; render them into different --out folders)"
            ));
        }
        if !self.options.force && !made_by_us(path) {
            return Err(
                "exists and is not a picture sudoku-lsp made: not overwritten (remove it, or \
                 pass --force)"
                    .into(),
            );
        }
        Ok(())
    }
}

/// What a file is on disk, whatever its name (or a link to it): device and inode; its path
/// elsewhere (where a case-insensitive file system may take two names for one).
#[cfg(unix)]
type Identity = (u64, u64);

#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> Identity {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
type Identity = (u64, std::time::SystemTime);

#[cfg(not(unix))]
fn identity(meta: &std::fs::Metadata) -> Identity {
    (meta.len(), meta.modified().unwrap_or(std::time::UNIX_EPOCH))
}

/// The picture rasterised, when this build can (the `png` feature, on by default).
#[cfg(feature = "png")]
fn png(svg: &str) -> Result<Vec<u8>, PngError> {
    render::png(svg)
}

/// A build without the `png` feature (the fuzz targets', which leave out the font and SVG
/// stack) says so rather than drawing nothing.
#[cfg(not(feature = "png"))]
fn png(_svg: &str) -> Result<Vec<u8>, PngError> {
    Err(PngError::NoFont(
        "this sudoku-lsp was built without PNG support (cargo's `png` feature, on by default): \
         draw SVG with --format svg, or build it with the default features"
            .to_string(),
    ))
}

/// Whether an existing file is a picture `render` made: an SVG that starts with our comment,
/// or a PNG with our `Software` text chunk (written right after its header).
fn made_by_us(path: &Path) -> bool {
    let mut head = Vec::with_capacity(512);
    let Ok(file) = open_without_waiting(path) else {
        return false;
    };
    if !file.metadata().is_ok_and(|meta| meta.is_file()) {
        return false; // swapped for a FIFO or the like since it was looked at
    }
    if file.take(512).read_to_end(&mut head).is_err() {
        return false;
    }
    let contains = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
    let (keyword, value) = render::SOFTWARE;
    let chunk = [keyword.as_bytes(), b"\0", value.as_bytes()].concat();
    contains(render::GENERATOR.as_bytes()) || (head.starts_with(b"\x89PNG") && contains(&chunk))
}

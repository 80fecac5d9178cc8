//! Output held back until its input has been read to the end, so that what goes to standard
//! output is the whole text or nothing: a filter (`fmt -` under Vim's `:%!`, which replaces the
//! buffer with whatever comes out) must never hand on the first half of a text that then fails.
//!
//! Held in memory up to [`IN_MEMORY`], past that in an unnamed temporary file (in `$TMPDIR`),
//! as `sort` holds what it cannot keep: memory stays flat however long the input.

use std::io::{Seek, SeekFrom, Write};

/// What is held in memory before the rest goes to a temporary file.
pub const IN_MEMORY: usize = 16 << 20;

pub struct Spool {
    held: tempfile::SpooledTempFile,
    /// The first failure to hold something; nothing more is held after it.
    failed: Option<std::io::Error>,
}

impl Spool {
    pub fn new() -> Spool {
        Spool {
            held: tempfile::spooled_tempfile(IN_MEMORY),
            failed: None,
        }
    }

    pub fn write(&mut self, bytes: &[u8]) {
        if self.failed.is_none() {
            if let Err(e) = self.held.write_all(bytes) {
                self.failed = Some(e);
            }
        }
    }

    /// Write everything held to `out`; an error says what failed.
    pub fn send(mut self, out: &mut impl Write) -> Result<(), String> {
        if let Some(e) = self.failed {
            return Err(format!(
                "cannot hold the output until the input is read to its end: {e}; nothing written"
            ));
        }
        let unheld = |e: std::io::Error| format!("cannot read back the held output: {e}");
        self.held.seek(SeekFrom::Start(0)).map_err(unheld)?;
        let mut buffer = vec![0; 1 << 16];
        loop {
            let n = std::io::Read::read(&mut self.held, &mut buffer).map_err(unheld)?;
            if n == 0 {
                break;
            }
            out.write_all(&buffer[..n])
                .map_err(|e| format!("cannot write standard output: {e}"))?;
        }
        out.flush()
            .map_err(|e| format!("cannot write standard output: {e}"))
    }
}

//! Bounded line reading from an engine's pipes.
//!
//! An engine is a program we did not write: it may print a megabyte without a newline. A line
//! longer than the bound is skipped to its end (and reported) rather than buffered, so one
//! reader never holds more than the bound.

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// What one read gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// A line without its end (`\n` or `\r\n`); invalid UTF-8 replaced.
    Line(String),
    /// A line longer than the bound, skipped; its length in bytes.
    TooLong(usize),
    /// End of the stream.
    Eof,
}

/// Reads the next line of at most `max` bytes; `buf` is scratch space kept between calls.
pub async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<Read> {
    buf.clear();
    let mut skipped = 0usize;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (skipped, buf.is_empty()) {
                (0, true) => Read::Eof,
                (0, false) => Read::Line(finish(buf)),
                (n, _) => Read::TooLong(n),
            });
        }
        let (chunk, found) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        if skipped == 0 && buf.len() + chunk.len() <= max {
            buf.extend_from_slice(chunk);
        } else {
            skipped += buf.len() + chunk.len();
            buf.clear();
        }
        let used = found.unwrap_or(available.len());
        reader.consume(used);
        if found.is_some() {
            return Ok(if skipped > 0 {
                Read::TooLong(skipped)
            } else {
                Read::Line(finish(buf))
            });
        }
    }
}

fn finish(buf: &[u8]) -> String {
    let text = buf.strip_suffix(b"\r").unwrap_or(buf);
    String::from_utf8_lossy(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn all(input: &[u8], max: usize) -> Vec<Read> {
        let mut reader = tokio::io::BufReader::with_capacity(4, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let r = read_line(&mut reader, &mut buf, max).await.unwrap();
            let end = r == Read::Eof;
            out.push(r);
            if end {
                return out;
            }
        }
    }

    /// Lines end at `\n` or `\r\n`; a last line without a newline still counts.
    #[tokio::test]
    async fn lines() {
        assert_eq!(
            all(b"uciok\r\nreadyok\nbestmove e2e4", 64).await,
            [
                Read::Line("uciok".into()),
                Read::Line("readyok".into()),
                Read::Line("bestmove e2e4".into()),
                Read::Eof
            ]
        );
    }

    /// A line over the bound is skipped whole, however it is split across reads, and the
    /// lines after it read normally.
    #[tokio::test]
    async fn over_long_lines_are_skipped() {
        let mut input = vec![b'x'; 100];
        input.extend_from_slice(b"\nreadyok\n");
        input.extend_from_slice(&[b'y'; 30]);
        assert_eq!(
            all(&input, 16).await,
            [
                Read::TooLong(100),
                Read::Line("readyok".into()),
                Read::TooLong(30),
                Read::Eof
            ]
        );
    }

    /// Bytes that are not UTF-8 do not stop the reader.
    #[tokio::test]
    async fn invalid_utf8() {
        assert_eq!(
            all(b"id name \xff\n", 64).await,
            [Read::Line("id name \u{fffd}".into()), Read::Eof]
        );
    }
}

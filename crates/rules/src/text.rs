//! [`Text`]: a move's notation (UCI, or SAN with its suffix) as a short ASCII string on the
//! stack, written byte by byte. The service lists every legal move in both notations on every
//! answer; going through `core::fmt` for each letter costs more than finding the moves.

use core::fmt;

/// The longest 8x8 notation: SAN such as `Qa1xb2#` or `exd8=Q+` is at most 7 bytes, UCI at
/// most 5. (A game keeps every move's SAN as one: eight bytes a move.)
const CAPACITY: usize = 7;

/// A notation's ASCII text of at most `N` bytes; [`Text::as_str`] reads it. The 8x8 engine's
/// is the default; the wide family's SAN is longer (`Ca10xa10=C#`: [`WideText`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Text<const N: usize = CAPACITY> {
    buf: [u8; N],
    len: u8,
}

/// The wide family's SAN: a piece letter, a two-part disambiguation (`a10`), a capture, a
/// square of rank 10, a promotion and a mark: at most 12 bytes. An Ambiguous Chess turn is
/// longer: a promoting execution, its mark and the move the mark forced (`b2a1q>c5=d4c5`), or
/// that execution in SAN as a player may type it (`bxa1=Q>c5=d4c5`): at most 14.
pub type WideText = Text<14>;

impl<const N: usize> Text<N> {
    pub(crate) const fn new() -> Text<N> {
        Text {
            buf: [0; N],
            len: 0,
        }
    }

    /// Appends an ASCII character; one past the capacity would be a bug in the notation code,
    /// and is dropped rather than a panic.
    /// `s` as a text, if it is ASCII and fits.
    #[must_use]
    pub fn from_ascii(s: &str) -> Option<Text<N>> {
        if !s.is_ascii() || s.len() > N {
            return None;
        }
        let mut text = Text::new();
        text.push_str(s);
        Some(text)
    }

    pub(crate) fn push(&mut self, c: char) {
        if let (Some(slot), true) = (self.buf.get_mut(usize::from(self.len)), c.is_ascii()) {
            *slot = c as u8;
            self.len += 1;
        }
    }

    pub(crate) fn push_str(&mut self, s: &str) {
        s.chars().for_each(|c| self.push(c));
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        // Only ASCII is ever pushed.
        core::str::from_utf8(&self.buf[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl<const N: usize> Default for Text<N> {
    fn default() -> Text<N> {
        Text::new()
    }
}

/// Text that is not ASCII or longer than the capacity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextTooLong;

impl fmt::Display for TextTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a short ASCII notation")
    }
}

impl std::error::Error for TextTooLong {}

impl<const N: usize> core::str::FromStr for Text<N> {
    type Err = TextTooLong;

    fn from_str(s: &str) -> Result<Text<N>, TextTooLong> {
        Text::from_ascii(s).ok_or(TextTooLong)
    }
}

impl<const N: usize> AsRef<str> for Text<N> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> fmt::Display for Text<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<const N: usize> fmt::Debug for Text<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::Text;

    /// Text keeps what was pushed up to its capacity and nothing that is not ASCII.
    #[test]
    fn text_holds_ascii_up_to_its_capacity() {
        let mut t: Text = Text::new();
        t.push_str("exd8=Q+");
        assert_eq!(t.as_str(), "exd8=Q+");
        t.push('#');
        assert_eq!(t.as_str(), "exd8=Q+");
        let mut t: Text = Text::new();
        t.push('é');
        t.push('N');
        assert_eq!(t.as_str(), "N");
        assert_eq!(std::mem::size_of::<Text>(), 8);
    }
}

//! The one option parser of the subcommands: `--name value`, `--name=value`, flags `--name`, and the other
//! arguments (moves, files) in their order.

/// Walks a list of options: `--name value`, `--name=value`, or a flag `--name`.
pub(crate) struct OptionCursor<'a> {
    args: &'a [String],
    i: usize,
}

impl<'a> OptionCursor<'a> {
    pub(crate) fn new(args: &'a [String]) -> OptionCursor<'a> {
        OptionCursor { args, i: 0 }
    }

    /// The next option's name and its `=value`, if written so.
    pub(crate) fn next_option(&mut self) -> Option<(String, Option<String>)> {
        let arg = self.args.get(self.i)?;
        self.i += 1;
        Some(match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        })
    }

    /// The option's value: its `=value`, or the next argument.
    pub(crate) fn value(&mut self, name: &str, inline: &Option<String>) -> Result<String, String> {
        if let Some(v) = inline {
            return Ok(v.clone());
        }
        let v = self.args.get(self.i).cloned().ok_or_else(|| format!("option {name} needs a value"))?;
        self.i += 1;
        Ok(v)
    }

    /// The bare arguments that follow, up to the next `--option`: the further values of an option that takes several
    /// (files from a shell pattern).
    pub(crate) fn more_values(&mut self) -> Vec<String> {
        let rest = &self.args[self.i..];
        let n = rest.iter().take_while(|a| !a.starts_with("--")).count();
        self.i += n;
        rest[..n].to_vec()
    }

    /// The option's value as a number within `range`, or a message naming `what` it should be.
    pub(crate) fn number<T>(
        &mut self,
        name: &str,
        inline: &Option<String>,
        what: &str,
        range: std::ops::RangeInclusive<T>,
    ) -> Result<T, String>
    where
        T: std::str::FromStr + PartialOrd + std::fmt::Display,
    {
        let v = self.value(name, inline)?;
        v.trim()
            .parse()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| format!("bad {what} '{v}' ({} to {})", range.start(), range.end()))
    }
}

/// A number option's value, or `bad WHAT 'VALUE'`.
pub(super) fn number<T: std::str::FromStr>(v: &str, what: &str) -> Result<T, String> {
    v.trim().parse().map_err(|_| format!("bad {what} '{v}'"))
}

/// A finite number of at least 0, or `bad WHAT 'VALUE'`.
pub(super) fn non_negative(v: &str, what: &str) -> Result<f64, String> {
    v.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0).ok_or(format!("bad {what} '{v}'"))
}

/// A board side from 5 to 22.
pub(super) fn parse_size(v: &str) -> Result<usize, String> {
    let size: usize = number(v, "board size")?;
    if !(crate::types::MIN_SIZE..=crate::types::MAX_SIZE).contains(&size) {
        return Err(format!("board size {size} is not supported (use 5 to 22)"));
    }
    Ok(size)
}

/// `serve [--port P] [--host H]`.
pub(crate) fn parse_serve(args: &[String]) -> Result<crate::serve::ServeOptions, String> {
    let mut opts = crate::serve::ServeOptions::default();
    let mut cursor = OptionCursor::new(args);
    while let Some((name, inline)) = cursor.next_option() {
        match name.as_str() {
            "--port" => opts.port = cursor.number(&name, &inline, "port", 0..=65_535)?,
            "--host" => opts.host = cursor.value(&name, &inline)?,
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(opts)
}

//! Writing tuned values back into the search's `params.rs`: in its
//! `tunables!` list, each tuned parameter's line `NAME: type = default,
//! min..=max, ...` gets the new default; nothing else of the file changes.

use std::path::Path;

/// The default `tuzdyk spsa --write-params` rewrites, from the repository's
/// top directory.
pub const DEFAULT_PATH: &str = "crates/search/src/params.rs";

/// Why the values cannot be written back.
#[derive(Debug, thiserror::Error)]
pub enum ParamsFileError {
    #[error("cannot read params file '{path}': {error}")]
    Read { path: String, error: std::io::Error },
    #[error("params file '{path}' declares no tunable '{name}' (NAME: type = default, ...)")]
    Missing { path: String, name: String },
    #[error("cannot write params file '{path}': {error}")]
    Write { path: String, error: std::io::Error },
}

/// One default changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub name: String,
    /// As written before, e.g. `20_000`.
    pub old: String,
    pub new: String,
}

/// A whole number as params.rs writes it: `_` between thousands from
/// 10,000 on (`20_000`), as rustfmt's users do.
pub fn literal(value: i64) -> String {
    let digits = value.unsigned_abs().to_string();
    let grouped = if digits.len() > 4 {
        let mut out = String::new();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push('_');
            }
            out.push(digit);
        }
        out
    } else {
        digits
    };
    if value < 0 {
        format!("-{grouped}")
    } else {
        grouped
    }
}

/// Where the default of `name`'s tunable line is in `text`: the byte range
/// of the literal after `=`.
fn default_span(text: &str, name: &str) -> Option<std::ops::Range<usize>> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let rest = trimmed
            .strip_prefix(name)
            .and_then(|rest| rest.strip_prefix(':'));
        if let Some(rest) = rest
            && let Some((_, after_type)) = rest.split_once('=')
            && let Some((value, _)) = after_type.split_once(',')
        {
            let start_in_line = line.len() - after_type.len();
            let leading = value.len() - value.trim_start().len();
            let start = offset + start_in_line + leading;
            return Some(start..start + value.trim().len());
        }
        offset += line.len();
    }
    None
}

/// The defaults of `names` declared in `text`, as written.
///
/// # Errors
/// [`ParamsFileError::Missing`] for a name without a tunable line.
pub fn defaults(text: &str, path: &str, names: &[&str]) -> Result<Vec<String>, ParamsFileError> {
    names
        .iter()
        .map(|name| {
            default_span(text, name)
                .map(|span| text[span].to_string())
                .ok_or_else(|| ParamsFileError::Missing {
                    path: path.to_string(),
                    name: name.to_string(),
                })
        })
        .collect()
}

/// `text` with each `(name, value)`'s default replaced, and what changed.
///
/// # Errors
/// [`ParamsFileError::Missing`] for a name without a tunable line; `text`
/// is then not changed at all.
pub fn rewrite(
    text: &str,
    path: &str,
    values: &[(&str, i64)],
) -> Result<(String, Vec<Change>), ParamsFileError> {
    let mut out = text.to_string();
    let mut changes = Vec::new();
    for (name, value) in values {
        let span = default_span(&out, name).ok_or_else(|| ParamsFileError::Missing {
            path: path.to_string(),
            name: name.to_string(),
        })?;
        let old = out[span.clone()].to_string();
        let new = literal(*value);
        if old.replace('_', "") != new.replace('_', "") {
            out.replace_range(span, &new);
            changes.push(Change {
                name: name.to_string(),
                old,
                new,
            });
        }
    }
    Ok((out, changes))
}

/// Rewrites the file at `path` (only if something changed).
///
/// # Errors
/// [`ParamsFileError`]: unreadable, a name missing, unwritable.
pub fn write_back(path: &Path, values: &[(&str, i64)]) -> Result<Vec<Change>, ParamsFileError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| ParamsFileError::Read {
        path: shown.clone(),
        error,
    })?;
    let (text, changes) = rewrite(&text, &shown, values)?;
    if !changes.is_empty() {
        std::fs::write(path, text)
            .map_err(|error| ParamsFileError::Write { path: shown, error })?;
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
pub const RFP_MARGIN_NOTE: i32 = 1;
tunables! {
    /// The first window.
    ASPIRATION_DELTA: i32 = 40, 10..=120, c_end 6.0, r_end 0.002;
    LMR_DIVISOR: i32 = 20_000, 10_000..=40_000, c_end 1500.0, r_end 0.002;
    RFP_MARGIN: i32 = 90, 30..=200, c_end 8.0, r_end 0.002;
}
";

    #[test]
    fn only_the_tuned_defaults_change() {
        let (text, changes) = rewrite(
            TEXT,
            "p.rs",
            &[
                ("LMR_DIVISOR", 21_500),
                ("RFP_MARGIN", 90),
                ("ASPIRATION_DELTA", 7),
            ],
        )
        .unwrap();
        assert_eq!(
            text,
            TEXT.replace("= 20_000,", "= 21_500,")
                .replace("= 40, 10", "= 7, 10")
        );
        let names: Vec<&str> = changes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["LMR_DIVISOR", "ASPIRATION_DELTA"]);
        assert_eq!(
            (changes[0].old.as_str(), changes[0].new.as_str()),
            ("20_000", "21_500")
        );
        assert_eq!(
            defaults(&text, "p.rs", &["RFP_MARGIN", "LMR_DIVISOR"]).unwrap(),
            ["90", "21_500"]
        );
        let error = rewrite(TEXT, "p.rs", &[("RFP_MARGIN", 1), ("NOPE", 1)]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "params file 'p.rs' declares no tunable 'NOPE' (NAME: type = default, ...)"
        );
    }

    #[test]
    fn literals_are_written_as_params_rs_writes_them() {
        assert_eq!(literal(7), "7");
        assert_eq!(literal(2000), "2000");
        assert_eq!(literal(16_384), "16_384");
        assert_eq!(literal(1_234_567), "1_234_567");
        assert_eq!(literal(-40), "-40");
    }
}

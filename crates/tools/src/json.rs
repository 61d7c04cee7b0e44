//! Just enough JSON writing for the tools' one-object-per-line output
//! (`analyse --json`, `match --json`): no serde, strings escaped by hand.

use std::fmt::Write;

/// A JSON string literal of `text`, with quotes.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number at full precision, or `null` for infinities and NaN.
pub fn number(value: f64) -> String {
    if value.is_finite() {
        format!("{value}")
    } else {
        "null".to_string()
    }
}

/// A JSON object written field by field, in order.
#[derive(Debug, Default)]
pub struct Object {
    text: String,
}

impl Object {
    pub fn new() -> Object {
        Object {
            text: String::from("{"),
        }
    }

    fn key(&mut self, key: &str) -> &mut Object {
        if self.text.len() > 1 {
            self.text.push(',');
        }
        self.text.push_str(&string(key));
        self.text.push(':');
        self
    }

    /// A field whose value is already JSON.
    pub fn raw(&mut self, key: &str, json: &str) -> &mut Object {
        self.key(key).text.push_str(json);
        self
    }

    pub fn str(&mut self, key: &str, value: &str) -> &mut Object {
        self.raw(key, &string(value))
    }

    pub fn opt_str(&mut self, key: &str, value: Option<&str>) -> &mut Object {
        match value {
            Some(value) => self.str(key, value),
            None => self.raw(key, "null"),
        }
    }

    /// An integer.
    pub fn int(&mut self, key: &str, value: impl Into<i64>) -> &mut Object {
        self.raw(key, &value.into().to_string())
    }

    pub fn opt_int<T: Into<i64>>(&mut self, key: &str, value: Option<T>) -> &mut Object {
        match value {
            Some(value) => self.int(key, value),
            None => self.raw(key, "null"),
        }
    }

    /// A number with one decimal (`null` if not finite).
    pub fn float(&mut self, key: &str, value: f64) -> &mut Object {
        if value.is_finite() {
            self.raw(key, &format!("{value:.1}"))
        } else {
            self.raw(key, "null")
        }
    }

    /// A number at full precision (`null` if not finite).
    pub fn number(&mut self, key: &str, value: f64) -> &mut Object {
        self.raw(key, &number(value))
    }

    /// A number at full precision, or `null`.
    pub fn opt_number(&mut self, key: &str, value: Option<f64>) -> &mut Object {
        self.raw(key, &value.map_or("null".to_string(), number))
    }

    /// An array of values that are already JSON.
    pub fn array(&mut self, key: &str, items: &[String]) -> &mut Object {
        self.raw(key, &format!("[{}]", items.join(",")))
    }

    pub fn bool(&mut self, key: &str, value: bool) -> &mut Object {
        self.raw(key, if value { "true" } else { "false" })
    }

    /// An array of strings.
    pub fn strings(&mut self, key: &str, values: &[String]) -> &mut Object {
        let items: Vec<String> = values.iter().map(|v| string(v)).collect();
        self.raw(key, &format!("[{}]", items.join(",")))
    }

    pub fn finish(&self) -> String {
        format!("{}}}", self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }

    #[test]
    fn objects_are_written_in_order() {
        let mut object = Object::new();
        object
            .str("fen", "x y")
            .int("depth", 3u32)
            .opt_int::<i32>("mate", None)
            .strings("pv", &["1".to_string(), "2".to_string()])
            .bool("over", false)
            .float("avg", 1.26);
        assert_eq!(
            object.finish(),
            r#"{"fen":"x y","depth":3,"mate":null,"pv":["1","2"],"over":false,"avg":1.3}"#
        );
        assert_eq!(Object::new().finish(), "{}");
        assert_eq!(number(f64::INFINITY), "null");
        assert_eq!(number(0.5), "0.5");
        let mut object = Object::new();
        object
            .number("x", 0.25)
            .opt_number("y", None)
            .array("z", &["1".to_string(), "{}".to_string()]);
        assert_eq!(object.finish(), r#"{"x":0.25,"y":null,"z":[1,{}]}"#);
    }
}

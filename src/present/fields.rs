//! A struct's serde fields written one by one into a JSON object, with no
//! map in between (`serde_json::to_value` builds one, its keys hashed):
//! what each target of an answer costs in JSON (`outcome_json`), on streams
//! of tens of thousands of boards.

use serde::Serialize;
use serde::ser::{self, Impossible, SerializeStruct};
use serde_json::{Error, Map, Value};

/// Writes into `object` each field of the struct `value` that `keep`
/// keeps, in their order, as its serde form.
///
/// # Errors
/// A value that is not a struct, or a field that has no JSON form.
pub(super) fn write_fields<T: Serialize>(
    value: &T,
    object: &mut Map<String, Value>,
    keep: impl Fn(&str) -> bool,
) -> Result<(), Error> {
    value.serialize(Fields { object, keep })
}

/// A serializer that takes only structs, and writes their fields.
struct Fields<'m, K> {
    object: &'m mut Map<String, Value>,
    keep: K,
}

impl<K: Fn(&str) -> bool> SerializeStruct for Fields<'_, K> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        if (self.keep)(key) {
            self.object.insert(key.to_string(), serde_json::to_value(value)?);
        }
        Ok(())
    }

    fn end(self) -> Result<(), Error> {
        Ok(())
    }
}

/// The refusal of anything but a struct.
fn not_a_struct() -> Error {
    ser::Error::custom("only a struct's fields are written")
}

/// Serializer methods that refuse their value (anything but a struct).
macro_rules! refuse {
    ($($name:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(fn $name(self, $(_: $arg),*) -> Result<$ok, Error> {
            Err(not_a_struct())
        })*
    };
}

impl<'m, K: Fn(&str) -> bool> ser::Serializer for Fields<'m, K> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
        Ok(self)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Error> {
        Err(not_a_struct())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, _: &T) -> Result<(), Error> {
        Err(not_a_struct())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(not_a_struct())
    }

    refuse! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Pair {
        kept: u64,
        left: bool,
        also: Option<u8>,
    }

    #[test]
    fn the_kept_fields_go_in_in_their_order_and_nothing_but_a_struct_does() {
        let mut object = Map::new();
        object.insert("before".into(), Value::Null);
        write_fields(&Pair { kept: 7, left: true, also: None }, &mut object, |k| k != "left").unwrap();
        assert_eq!(Value::Object(object).to_string(), r#"{"before":null,"kept":7,"also":null}"#);
        assert!(write_fields(&3u8, &mut Map::new(), |_| true).is_err());
    }
}

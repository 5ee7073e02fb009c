//! Argument validation: everything a caller passes is checked here, before any I/O.
//! Each refusal is an `invalid_input` [`Error`] whose `field` names the argument.

use crate::error::Error;
use crate::types::OrderHistoryFilter;

/// The largest value of a GraphQL `Int` (32-bit signed).
pub const MAX_GRAPHQL_INT: i64 = 2_147_483_647;

/// The keys an `OrderHistoryFilter` may have.
#[cfg_attr(
    not(all(target_arch = "wasm32", feature = "npm-base")),
    allow(dead_code)
)] // read by the npm binding (src/js) only
pub const FILTER_KEYS: [&str; 5] = ["orderId", "status", "dateFrom", "dateTo", "paymentMethod"];

/// Size caps: each refusal is `invalid_input` naming the limit. The JavaScript layer
/// (src/js/options.rs) checks a string's length before copying it into wasm memory.
/// A field path (`a.b.c`, at most [`MAX_FIELD_DEPTH`] names), in characters.
pub const MAX_FIELD_PATH: u32 = 256;
/// A GraphQL name in `fields` (the schema's longest is under 40).
pub const MAX_FIELD_NAME: usize = 64;
/// Entries in `fields`.
pub const MAX_FIELDS: u32 = 128;
/// Extra headers, and the length of a header's name or value.
#[cfg_attr(
    not(all(target_arch = "wasm32", feature = "npm-base")),
    allow(dead_code)
)] // read by the npm binding (src/js) only
pub const MAX_HEADERS: u32 = 32;
/// The length of a header name or value.
#[cfg_attr(
    not(all(target_arch = "wasm32", feature = "npm-base")),
    allow(dead_code)
)] // read by the npm binding (src/js) only
pub const MAX_HEADER_LEN: u32 = 4096;
/// A filter string (`orderId`, `status`, `paymentMethod`, a date).
#[cfg_attr(
    not(all(target_arch = "wasm32", feature = "npm-base")),
    allow(dead_code)
)] // read by the npm binding (src/js) only
pub const MAX_FILTER_LEN: u32 = 256;
/// The `document` of `request`.
pub const MAX_DOCUMENT_LEN: u32 = 100_000;
/// The `variables` of `request`, as JSON text.
#[cfg_attr(
    not(all(target_arch = "wasm32", feature = "npm-base")),
    allow(dead_code)
)] // read by the npm binding (src/js) only
pub const MAX_VARIABLES_LEN: u32 = 1_000_000;
/// Any other string argument or option (URLs, key, ids, amounts).
#[cfg_attr(
    not(all(target_arch = "wasm32", feature = "npm-base")),
    allow(dead_code)
)] // read by the npm binding (src/js) only
pub const MAX_TEXT_LEN: u32 = 4096;

/// `<field> is longer than <max> characters (the limit)`.
pub fn too_long(field: &str, max: u32) -> Error {
    limit(field, " is longer than ", max, " characters (the limit)")
}

/// Refuses a string a caller passes that is longer than `max`, counted as JavaScript counts
/// it (`length`: UTF-16 code units): `too_long` naming `field`. The npm binding applies it to
/// every string before copying it into wasm memory (`MAX_TEXT_LEN` for an argument,
/// `MAX_FILTER_LEN` for a filter member, `MAX_FIELD_PATH` for a `fields` entry), and the
/// server proxy to every string of a body it would forward, with the same bounds.
#[cfg_attr(not(any(feature = "npm-base", feature = "server")), allow(dead_code))] // the npm binding's and the proxy's
pub fn text_len(field: &str, utf16_len: usize, max: u32) -> Result<(), Error> {
    if utf16_len > max as usize {
        return Err(too_long(field, max));
    }
    Ok(())
}

/// `<field> has more than <max> entries (the limit)`.
pub fn too_many(field: &str, max: u32) -> Error {
    limit(field, " has more than ", max, " entries (the limit)")
}

fn limit(field: &str, head: &str, max: u32, tail: &str) -> Error {
    let mut m = String::from(field);
    m.push_str(head);
    crate::text::push_unsigned(&mut m, max.into());
    m.push_str(tail);
    Error::invalid(field, m)
}

/// Splits `s` at every byte for which `sep` is true (like `str::split`; separators must be
/// ASCII). Smaller in wasm than `str::split`.
pub fn split_ascii(s: &str, sep: fn(u8) -> bool) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.bytes().position(sep) {
            Some(i) => {
                rest = r.get(i + 1..);
                r.get(..i)
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// A non-empty run of at most 18 ASCII digits as a number.
pub fn digits(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 18 {
        return None;
    }
    let mut n = 0u64;
    for b in s.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u64::from(b - b'0');
    }
    Some(n)
}

/// `.` (the separator of dotted field paths).
pub fn is_dot(b: u8) -> bool {
    b == b'.'
}

/// Whether `s` is a GraphQL name: `/^[_A-Za-z][_0-9A-Za-z]*$/`.
pub fn is_name(s: &str) -> bool {
    let mut bytes = s.bytes();
    match bytes.next() {
        Some(b) if b == b'_' || b.is_ascii_alphabetic() => {}
        _ => return false,
    }
    bytes.all(|b| b == b'_' || b.is_ascii_alphanumeric())
}

/// Whether `s` may be a GraphQL enum value: a name other than `true`, `false`, `null`.
pub fn is_enum_value(s: &str) -> bool {
    is_name(s) && !matches!(s, "true" | "false" | "null")
}

/// A JavaScript number as an integer: finite and without a fractional part.
#[cfg_attr(
    not(all(target_arch = "wasm32", feature = "npm-base")),
    allow(dead_code)
)] // read by the npm binding (src/js) only
pub fn integer(value: f64, field: &str) -> Result<i64, Error> {
    if !value.is_finite() || value.fract() != 0.0 {
        let mut m = String::from(field);
        m.push_str(" must be an integer");
        return Err(Error::invalid(field, m));
    }
    // Saturating: out-of-range values are refused by the range checks that follow.
    Ok(value as i64)
}

fn int_in_range(value: i64, field: &str, min: i64, max: i64, what: &str) -> Result<i64, Error> {
    if value < min || value > max {
        let mut m = String::from(field);
        m.push_str(what);
        return Err(Error::invalid(field, m));
    }
    Ok(value)
}

/// `page`: an integer from 1 to 2147483647 (the GraphQL `Int` limit).
pub fn page(value: i64) -> Result<i64, Error> {
    int_in_range(
        value,
        "page",
        1,
        MAX_GRAPHQL_INT,
        " must be an integer from 1 to 2147483647",
    )
}

/// `perPage`: an integer from 1 to 2147483647. No lower cap is invented: the service's
/// maximum is not published, so the service decides.
pub fn per_page(value: i64) -> Result<i64, Error> {
    int_in_range(
        value,
        "perPage",
        1,
        MAX_GRAPHQL_INT,
        " must be an integer from 1 to 2147483647",
    )
}

/// A watch's wait option (`intervalMs`, `maxIntervalMs`): an integer of ms from `min` to
/// 2147483647 (the longest `setTimeout` delay).
pub fn wait_ms(value: i64, field: &str, min: i64) -> Result<i64, Error> {
    if value < min || value > MAX_GRAPHQL_INT {
        let mut m = String::from(field);
        m.push_str(" must be an integer from ");
        crate::text::push_signed(&mut m, min);
        m.push_str(" to 2147483647 (ms)");
        return Err(Error::invalid(field, m));
    }
    Ok(value)
}

/// Whether `year-month-day` is a real date of the proleptic Gregorian calendar.
pub fn is_valid_date(year: u32, month: u32, day: u32) -> bool {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    day >= 1 && day <= days
}

/// Checks a `YYYY-MM-DD` date string (a real calendar date).
pub fn date(field: &str, value: &str) -> Result<(), Error> {
    let b = value.as_bytes();
    let part = |r: std::ops::Range<usize>| value.get(r).and_then(digits).map(|n| n as u32);
    let ok = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && matches!(
            (part(0..4), part(5..7), part(8..10)),
            (Some(y), Some(m), Some(d)) if is_valid_date(y, m, d)
        );
    if ok {
        Ok(())
    } else {
        let mut m = String::from(field);
        m.push_str(" must be a real calendar date written YYYY-MM-DD");
        Err(Error::invalid(field, m))
    }
}

/// Formats a UTC calendar date as `YYYY-MM-DD` (years 0 to 9999; `None` outside).
#[cfg(all(test, not(target_arch = "wasm32")))]
pub fn format_date(year: i64, month: u32, day: u32) -> Option<String> {
    if !(0..=9999).contains(&year) || !is_valid_date(year as u32, month, day) {
        return None;
    }
    let mut s = String::with_capacity(10);
    let y = year as u32;
    for n in [y / 1000, (y / 100) % 10, (y / 10) % 10, y % 10] {
        s.push((b'0' + n as u8) as char);
    }
    s.push('-');
    s.push((b'0' + (month / 10) as u8) as char);
    s.push((b'0' + (month % 10) as u8) as char);
    s.push('-');
    s.push((b'0' + (day / 10) as u8) as char);
    s.push((b'0' + (day % 10) as u8) as char);
    Some(s)
}

/// A non-empty string (not only ASCII whitespace).
pub fn non_empty(field: &str, value: &str) -> Result<(), Error> {
    if value.trim_ascii().is_empty() {
        let mut m = String::from(field);
        m.push_str(" must not be empty");
        return Err(Error::invalid(field, m));
    }
    Ok(())
}

/// Checks every member of an order-history filter and that `dateFrom` is not after `dateTo`.
pub fn filter(f: &OrderHistoryFilter) -> Result<(), Error> {
    if let Some(v) = &f.order_id {
        non_empty("filter.orderId", v)?;
    }
    if let Some(v) = &f.status {
        if !is_enum_value(v) {
            return Err(Error::invalid(
                "filter.status",
                "filter.status must be a status name such as \"completed\"",
            ));
        }
    }
    if let Some(v) = &f.date_from {
        date("filter.dateFrom", v)?;
    }
    if let Some(v) = &f.date_to {
        date("filter.dateTo", v)?;
    }
    if let (Some(from), Some(to)) = (&f.date_from, &f.date_to) {
        // YYYY-MM-DD compares correctly as text.
        if from > to {
            let mut m = String::from("filter.dateFrom (");
            m.push_str(from);
            m.push_str(") is after filter.dateTo (");
            m.push_str(to);
            m.push(')');
            return Err(Error::invalid("filter.dateFrom", m));
        }
    }
    if let Some(v) = &f.payment_method {
        non_empty("filter.paymentMethod", v)?;
    }
    Ok(())
}

/// The deepest dotted path `fields` accepts (`a.b.c` is 3 deep).
pub const MAX_FIELD_DEPTH: usize = 16;

/// Checks a `fields` list: 1 to [`MAX_FIELDS`] entries, every entry a GraphQL name or a
/// dotted path of at most [`MAX_FIELD_DEPTH`] names.
pub fn fields(list: &[String]) -> Result<(), Error> {
    if list.is_empty() {
        return Err(Error::invalid(
            "fields",
            "fields must name at least one field",
        ));
    }
    if list.len() > MAX_FIELDS as usize {
        return Err(too_many("fields", MAX_FIELDS));
    }
    for (i, f) in list.iter().enumerate() {
        if f.len() > MAX_FIELD_PATH as usize {
            return Err(too_long("fields", MAX_FIELD_PATH));
        }
        if split_ascii(f, is_dot).any(|n| n.len() > MAX_FIELD_NAME) {
            let max = MAX_FIELD_NAME as u32;
            return Err(limit(
                "fields",
                " has a name longer than ",
                max,
                " characters (the limit)",
            ));
        }
        // The depth cap keeps the selection builder's recursion bounded whatever the input.
        if !split_ascii(f, is_dot).all(is_name)
            || f.bytes().filter(|&b| is_dot(b)).count() >= MAX_FIELD_DEPTH
        {
            let mut m = String::from("fields[");
            crate::text::push_unsigned(&mut m, i as u64);
            m.push_str("] is not a GraphQL field name or a dotted path of at most 16 field names");
            return Err(Error::invalid("fields", m));
        }
    }
    Ok(())
}

/// A withdrawal symbol: trimmed (ASCII whitespace), must not be empty.
pub fn symbol(value: &str) -> Result<&str, Error> {
    let s = value.trim_ascii();
    if s.is_empty() {
        return Err(Error::invalid(
            "symbol",
            "symbol must not be empty (e.g. \"USDC\")",
        ));
    }
    Ok(s)
}

/// A country id for `paymentMethodTypes`: trimmed (ASCII whitespace), must not be empty.
pub fn country_id(value: &str) -> Result<&str, Error> {
    non_empty("countryId", value)?;
    Ok(value.trim_ascii())
}

/// An ISO 3166-1 alpha-2 country code: two ASCII letters, returned upper-case.
pub fn country_code(value: &str) -> Result<String, Error> {
    country_code_of("countryCode", value)
}

/// [`country_code`] of an argument callers know as `field` (`rampQuote`'s `country`).
pub fn country_code_of(field: &str, value: &str) -> Result<String, Error> {
    if value.len() != 2 || !value.bytes().all(|b| b.is_ascii_alphabetic()) {
        let mut m = String::from(field);
        m.push_str(" must be two letters (ISO 3166-1 alpha-2)");
        return Err(Error::invalid(field, m));
    }
    Ok(value.to_ascii_uppercase())
}

/// A payment request reference: must not be blank; sent exactly as given (references are
/// matched exactly).
pub fn reference(value: &str) -> Result<&str, Error> {
    non_empty("reference", value)?;
    Ok(value)
}

/// An id (or a payment method type) of a mutation argument: trimmed (ASCII whitespace),
/// must not be empty.
pub fn id<'a>(field: &str, value: &'a str) -> Result<&'a str, Error> {
    non_empty(field, value)?;
    Ok(value.trim_ascii())
}

/// A decimal argument: text [`crate::amount::parse_amount`] accepts (no float, no
/// exponent, no spaces) and not negative; sent exactly as given.
pub fn decimal(field: &str, value: &str) -> Result<(), Error> {
    if value.starts_with('-') || crate::amount::parse_amount(value).is_err() {
        let mut m = String::from(field);
        m.push_str(
            " must be non-negative decimal text such as \"1520.50\" (digits, optionally .digits)",
        );
        return Err(Error::invalid(field, m));
    }
    Ok(())
}

/// An onchain transaction hash, in one of the shapes the chains the ramp serves write it:
///
/// * `0x` and 64 hex digits: EVM chains (Ethereum, Base, Optimism, Celo...);
/// * 64 hex digits without `0x`: Tron and other hex-id chains;
/// * 43 to 88 base58 characters (no `0`, `O`, `I`, `l`): Solana signatures.
///
/// Sent exactly as given (hex case is the caller's). Anything else (a wallet address, a
/// truncated hash, spaces) is `invalid_input` before anything is sent.
pub fn transaction_hash(field: &str, value: &str) -> Result<(), Error> {
    let hex64 = |s: &str| s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit());
    let base58 = |s: &str| {
        (43..=88).contains(&s.len())
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() && !b"0OIl".contains(&b))
    };
    if value.strip_prefix("0x").is_some_and(hex64) || hex64(value) || base58(value) {
        return Ok(());
    }
    let mut m = String::from(field);
    m.push_str(
        " must be a transaction hash: 0x and 64 hex digits (EVM), 64 hex digits (Tron), or 43 to 88 base58 characters (Solana)",
    );
    Err(Error::invalid(field, m))
}

/// An email address, by shape: one `@` with a local part before it and a host with a dot
/// after it, no spaces or control characters, at most 254 characters. Sent as given.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub fn email(field: &str, value: &str) -> Result<(), Error> {
    let ok = value.len() <= 254
        && value.bytes().all(|b| b.is_ascii_graphic() || b >= 0x80)
        && value.split_once('@').is_some_and(|(local, host)| {
            !local.is_empty()
                && !host.contains('@')
                && host
                    .split_once('.')
                    .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty() && !b.ends_with('.'))
        });
    if ok {
        return Ok(());
    }
    let mut m = String::from(field);
    m.push_str(" must be an email address such as \"ada@example.com\"");
    Err(Error::invalid(field, m))
}

/// A `P2PPaymentCurrency` (the currency an amount is given in): `usd` or `local_currency`,
/// exactly, the only values the service's sources show; sent as given, never re-cased (`USD`
/// is not a value of the service's enum, and an ISO 4217 code such as `NGN` is not either).
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub fn currency(field: &str, value: &str) -> Result<(), Error> {
    if value == "usd" || value == "local_currency" {
        return Ok(());
    }
    let mut m = String::from(field);
    m.push_str(" must be \"usd\" or \"local_currency\"");
    Err(Error::invalid(field, m))
}

/// A payment type: `deposit` or `withdrawal`, exactly.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub fn payment_type(field: &str, value: &str) -> Result<(), Error> {
    if value == "deposit" || value == "withdrawal" {
        return Ok(());
    }
    let mut m = String::from(field);
    m.push_str(" must be \"deposit\" or \"withdrawal\"");
    Err(Error::invalid(field, m))
}

/// A phone number, trimmed: an optional leading `+`, then 7 to 15 digits (the E.164
/// range), with single spaces or hyphens allowed between digits.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub fn phone_number<'a>(field: &str, value: &'a str) -> Result<&'a str, Error> {
    let trimmed = value.trim_ascii();
    let number = trimmed.strip_prefix('+').unwrap_or(trimmed);
    let digits = number.bytes().filter(u8::is_ascii_digit).count();
    let separators_between_digits = split_ascii(number, |b| b == b' ' || b == b'-')
        .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()));
    if (7..=15).contains(&digits) && separators_between_digits {
        return Ok(trimmed);
    }
    let mut m = String::from(field);
    m.push_str(" must be a phone number such as \"+254712345678\" (7 to 15 digits)");
    Err(Error::invalid(field, m))
}

/// Who a payment method belongs to (`P2PPaymentMethodOwnership`): `first_party` or
/// `third_party`, exactly.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub fn ownership(field: &str, value: &str) -> Result<(), Error> {
    if value == "first_party" || value == "third_party" {
        return Ok(());
    }
    let mut m = String::from(field);
    m.push_str(" must be \"first_party\" or \"third_party\"");
    Err(Error::invalid(field, m))
}

/// Where an onchain deposit's crypto goes (`OnchainTransferInfo`): `address`,
/// `cryptocurrency` and `network` each not blank; sent exactly as given (the sources write
/// `usd_tether` and `celo` lower-case: never re-cased). A refusal names the member, e.g.
/// `onchainTransferInfo.network`.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub fn onchain_transfer_info(
    field: &str,
    info: &crate::types::OnchainTransferInfo,
) -> Result<(), Error> {
    for (name, value) in [
        ("address", &info.address),
        ("cryptocurrency", &info.cryptocurrency),
        ("network", &info.network),
    ] {
        let member = [field, ".", name].concat();
        non_empty(&member, value)?;
        if value.len() > MAX_TEXT_LEN as usize {
            return Err(too_long(&member, MAX_TEXT_LEN));
        }
    }
    Ok(())
}

/// Most `{ identifier, value }` pairs an `addPaymentMethod` call sends.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const MAX_FIELD_INPUTS: usize = 32;

/// The values of a payment method type's fields: 1 to [`MAX_FIELD_INPUTS`] pairs, each
/// `identifier` (the `identifier` of one of the type's fields) not blank and at most
/// [`MAX_FIELD_NAME`] characters, each `value` not blank, no identifier twice. Identifiers
/// are sent trimmed, values as given. A refusal names the pair, e.g. `fieldValues[1].value`.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub fn field_inputs(
    field: &str,
    list: Vec<crate::types::PaymentMethodFieldInput>,
) -> Result<Vec<crate::types::PaymentMethodFieldInput>, Error> {
    if list.is_empty() {
        let mut m = String::from(field);
        m.push_str(" must have at least one { identifier, value }");
        return Err(Error::invalid(field, m));
    }
    if list.len() > MAX_FIELD_INPUTS {
        return Err(too_many(field, MAX_FIELD_INPUTS as u32));
    }
    let mut out: Vec<crate::types::PaymentMethodFieldInput> = Vec::with_capacity(list.len());
    for (i, pair) in list.into_iter().enumerate() {
        let at = |part: &str| {
            let mut m = String::from(field);
            m.push('[');
            crate::text::push_unsigned(&mut m, i as u64);
            m.push_str("].");
            m.push_str(part);
            m
        };
        let identifier = pair.identifier.trim_ascii();
        non_empty(&at("identifier"), identifier)?;
        if identifier.len() > MAX_FIELD_NAME {
            return Err(too_long(&at("identifier"), MAX_FIELD_NAME as u32));
        }
        if out.iter().any(|p| p.identifier == identifier) {
            let f = at("identifier");
            let m = [f.as_str(), " repeats an identifier given before it"].concat();
            return Err(Error::invalid(&f, m));
        }
        non_empty(&at("value"), &pair.value)?;
        out.push(crate::types::PaymentMethodFieldInput {
            identifier: identifier.to_owned(),
            value: pair.value,
        });
    }
    Ok(out)
}

/// An absolute `http:` or `https:` URL (a redirect): a host, no credentials, no spaces or
/// control characters.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub fn http_url(field: &str, value: &str) -> Result<(), Error> {
    crate::config::check_absolute_url(field, value, true)
}

/// A GraphQL document for `request`: must not be blank, and within the bounds every scanned
/// document keeps ([`MAX_DOCUMENT_LEN`], then [`crate::graphql::limits`]'s depth and tokens),
/// checked before the read-only scan reads it.
pub fn document(value: &str) -> Result<(), Error> {
    if value.len() > MAX_DOCUMENT_LEN as usize {
        return Err(too_long("document", MAX_DOCUMENT_LEN));
    }
    crate::graphql::limits::check("document", value)?;
    non_empty("document", value)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::error::Code;
    use proptest::prelude::*;

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm): the
    /// reference the date checks are compared with.
    fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
        let y = if month <= 2 { year - 1 } else { year };
        let era = if y >= 0 { y } else { y - 399 } / 400;
        let yoe = y - era * 400;
        let m = i64::from(month);
        let mp = if m > 2 { m - 3 } else { m + 9 };
        let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    #[test]
    fn civil_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(days_from_civil(1994, 11, 6), 784_111_777 / 86_400);
    }

    fn field_of(r: Result<(), Error>) -> Option<String> {
        r.err().map(|e| {
            assert_eq!(e.code, Code::InvalidInput);
            e.field.clone().expect("invalid_input names a field")
        })
    }

    #[test]
    fn size_caps_name_the_limit() {
        let msg = |r: Result<(), Error>| r.expect_err("refused").message.clone();
        let many = vec!["id".to_owned(); MAX_FIELDS as usize + 1];
        assert!(msg(fields(&many)).contains("more than 128 entries"));
        assert!(fields(&many[..MAX_FIELDS as usize]).is_ok());
        let long = "a".repeat(MAX_FIELD_NAME + 1);
        assert!(msg(fields(&[long])).contains("longer than 64 characters"));
        assert!(fields(&["a".repeat(MAX_FIELD_NAME)]).is_ok());
        let path = vec!["ab"; 90].join(".");
        assert!(msg(fields(&[path])).contains("longer than 256 characters"));
        let doc = "{".repeat(MAX_DOCUMENT_LEN as usize + 1);
        assert!(msg(document(&doc)).contains("longer than 100000 characters"));
        assert!(document("{ a }").is_ok());
        // The scan's bounds, before it reads the document: depth and tokens.
        use crate::graphql::limits::{MAX_DEPTH, MAX_TOKENS};
        let nested = |n: usize| format!("{}a{}", "{".repeat(n), "}".repeat(n));
        assert!(document(&nested(MAX_DEPTH)).is_ok());
        assert!(msg(document(&nested(MAX_DEPTH + 1))).contains("nests deeper than 32"));
        assert!(msg(document(&"{".repeat(5_000))).contains("nests deeper"));
        let tokens = |n: usize| format!("{{{}}}", "a ".repeat(n - 2));
        assert!(document(&tokens(MAX_TOKENS)).is_ok());
        assert!(msg(document(&tokens(MAX_TOKENS + 1))).contains("more than 10000"));
        let e = crate::call::prepare_request(&"{".repeat(5_000), None, None)
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("document"));
    }

    #[test]
    fn splitting() {
        for s in ["", "a", "a.b", "a..b", ".a", "a.", "é.ü", "..."] {
            assert_eq!(
                split_ascii(s, is_dot).collect::<Vec<_>>(),
                s.split('.').collect::<Vec<_>>(),
                "{s:?}"
            );
        }
    }

    #[test]
    fn names() {
        for ok in ["a", "_", "__schema", "A1_b", "totp", "_0"] {
            assert!(is_name(ok), "{ok}");
        }
        for bad in ["", "1a", "a-b", "a b", "a.b", "é", "a{", "a\"", "a\n"] {
            assert!(!is_name(bad), "{bad}");
        }
        assert!(is_enum_value("picked_up"));
        assert!(is_enum_value("SOMETHING_NEW"));
        for bad in ["true", "false", "null", "", "paid!", "1st"] {
            assert!(!is_enum_value(bad), "{bad}");
        }
    }

    #[test]
    fn pages() {
        assert_eq!(page(1).unwrap(), 1);
        assert_eq!(page(MAX_GRAPHQL_INT).unwrap(), MAX_GRAPHQL_INT);
        for bad in [0, -1, MAX_GRAPHQL_INT + 1, i64::MIN] {
            assert_eq!(page(bad).unwrap_err().field.as_deref(), Some("page"));
            assert_eq!(per_page(bad).unwrap_err().field.as_deref(), Some("perPage"));
        }
        assert_eq!(per_page(100_000).unwrap(), 100_000);
        assert_eq!(integer(3.0, "page").unwrap(), 3);
        for bad in [1.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(
                integer(bad, "page").unwrap_err().field.as_deref(),
                Some("page")
            );
        }
        // Saturates, then the range check refuses it.
        assert!(page(integer(1e300, "page").unwrap()).is_err());
    }

    #[test]
    fn dates() {
        assert!(date("d", "2024-02-29").is_ok());
        assert!(date("d", "2000-02-29").is_ok());
        assert!(date("d", "2025-12-31").is_ok());
        assert!(date("d", "0000-01-01").is_ok());
        for bad in [
            "2025-02-29",
            "1900-02-29",
            "2025-13-01",
            "2025-00-10",
            "2025-01-00",
            "2025-04-31",
            "2025-1-01",
            "25-01-01",
            "2025/01/01",
            "2025-01-01T00:00:00Z",
            " 2025-01-01",
            "",
            "２０２５-01-01",
            "2025-01-0a",
            "+2025-01-01",
        ] {
            assert_eq!(
                field_of(date("filter.dateTo", bad)).as_deref(),
                Some("filter.dateTo"),
                "{bad}"
            );
        }
        assert_eq!(format_date(2024, 2, 29).as_deref(), Some("2024-02-29"));
        assert_eq!(format_date(7, 1, 5).as_deref(), Some("0007-01-05"));
        assert_eq!(format_date(10000, 1, 1), None);
        assert_eq!(format_date(-1, 1, 1), None);
        assert_eq!(format_date(2025, 2, 29), None);
    }

    fn filt(from: Option<&str>, to: Option<&str>) -> OrderHistoryFilter {
        OrderHistoryFilter {
            date_from: from.map(Into::into),
            date_to: to.map(Into::into),
            ..Default::default()
        }
    }

    #[test]
    fn filters() {
        assert!(filter(&OrderHistoryFilter::default()).is_ok());
        assert!(filter(&filt(Some("2024-01-01"), Some("2024-01-01"))).is_ok());
        assert!(filter(&filt(Some("2024-01-01"), Some("2024-12-31"))).is_ok());
        let e = filter(&filt(Some("2024-12-31"), Some("2024-01-01"))).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("filter.dateFrom"));
        assert_eq!(
            field_of(filter(&filt(Some("2025-02-29"), None))).as_deref(),
            Some("filter.dateFrom")
        );
        let f = OrderHistoryFilter {
            order_id: Some("  ".into()),
            ..Default::default()
        };
        assert_eq!(field_of(filter(&f)).as_deref(), Some("filter.orderId"));
        let f = OrderHistoryFilter {
            payment_method: Some(String::new()),
            ..Default::default()
        };
        assert_eq!(
            field_of(filter(&f)).as_deref(),
            Some("filter.paymentMethod")
        );
        for (s, ok) in [
            ("paid", true),
            ("picked_up", true),
            ("brand_new", true),
            ("null", false),
            ("pa id", false),
            ("paid\") { x }", false),
        ] {
            let f = OrderHistoryFilter {
                status: Some(s.into()),
                ..Default::default()
            };
            assert_eq!(filter(&f).is_ok(), ok, "{s}");
        }
    }

    #[test]
    fn field_lists() {
        assert!(fields(&["id".into(), "totp.enabled".into()]).is_ok());
        assert_eq!(field_of(fields(&[])).as_deref(), Some("fields"));
        for bad in ["", "a..b", ".a", "a.", "a b", "a{b}", "id\n}", "1x"] {
            let e = fields(&["id".into(), bad.into()]).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("fields"));
            assert!(e.message.starts_with("fields[1]"), "{}", e.message);
        }
        // Count: 128 entries pass, 129 are refused.
        let many = |n: u32| (0..n).map(|i| format!("f{i}")).collect::<Vec<_>>();
        assert!(fields(&many(MAX_FIELDS)).is_ok());
        assert_eq!(
            field_of(fields(&many(MAX_FIELDS + 1))).as_deref(),
            Some("fields")
        );
        // Depth: 16 names pass, 17 are refused, and a huge path is an error, not a stack overflow.
        let deep = |n: usize| vec!["a"; n].join(".");
        assert!(fields(&[deep(MAX_FIELD_DEPTH)]).is_ok());
        assert_eq!(
            field_of(fields(&[deep(MAX_FIELD_DEPTH + 1)])).as_deref(),
            Some("fields")
        );
        assert_eq!(
            field_of(fields(&[deep(200_000)])).as_deref(),
            Some("fields")
        );
    }

    #[test]
    fn symbols_and_documents() {
        assert_eq!(symbol("  USDC ").unwrap(), "USDC");
        assert_eq!(symbol(" \t").unwrap_err().field.as_deref(), Some("symbol"));
        assert!(document("{ a }").is_ok());
        assert_eq!(
            document("  ").unwrap_err().field.as_deref(),
            Some("document")
        );
    }

    #[test]
    fn merchant_arguments() {
        assert_eq!(country_id(" 1 ").unwrap(), "1");
        assert_eq!(country_id("KE").unwrap(), "KE");
        assert_eq!(
            field_of(country_id("  ").map(drop)).as_deref(),
            Some("countryId")
        );
        assert_eq!(country_code("ng").unwrap(), "NG");
        assert_eq!(country_code("Ke").unwrap(), "KE");
        for bad in ["", "N", "NGA", " NG", "N1", "ÑG", "N-", "\u{0}G"] {
            assert_eq!(
                field_of(country_code(bad).map(drop)).as_deref(),
                Some("countryCode"),
                "{bad:?}"
            );
        }
        assert_eq!(reference(" REF-1001").unwrap(), " REF-1001", "sent exactly");
        assert_eq!(
            field_of(reference("").map(drop)).as_deref(),
            Some("reference")
        );
        assert_eq!(
            field_of(reference("\t ").map(drop)).as_deref(),
            Some("reference")
        );
    }

    fn arb_date() -> impl Strategy<Value = String> {
        prop_oneof![
            (0u32..10000, 0u32..14, 0u32..33).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}")),
            ".{0,12}",
        ]
    }

    proptest! {
        #[test]
        fn dates_match_a_reference(y in 0u32..10000, m in 0u32..14, d in 0u32..33) {
            let text = format!("{y:04}-{m:02}-{d:02}");
            // Reference: day d of month m exists iff it comes before the 1st of the next month.
            let valid = (1..=12).contains(&m) && d >= 1 && {
                let (ny, nm) = if m == 12 { (i64::from(y) + 1, 1) } else { (i64::from(y), m + 1) };
                days_from_civil(i64::from(y), m, d) < days_from_civil(ny, nm, 1)
            };
            prop_assert_eq!(date("d", &text).is_ok(), valid, "{}", text);
        }

        #[test]
        fn random_filters_never_panic_and_name_the_field(
            order_id in proptest::option::of(".{0,8}"),
            status in proptest::option::of("[a-z_ !]{0,8}"),
            from in proptest::option::of(arb_date()),
            to in proptest::option::of(arb_date()),
            pm in proptest::option::of(".{0,8}"),
        ) {
            let f = OrderHistoryFilter { order_id, status, date_from: from, date_to: to, payment_method: pm };
            match filter(&f) {
                Ok(()) => {
                    // Valid filters satisfy every rule.
                    if let Some(v) = &f.order_id { prop_assert!(!v.trim_ascii().is_empty()); }
                    if let Some(v) = &f.payment_method { prop_assert!(!v.trim_ascii().is_empty()); }
                    if let Some(v) = &f.status { prop_assert!(is_enum_value(v)); }
                    if let (Some(a), Some(b)) = (&f.date_from, &f.date_to) { prop_assert!(a <= b); }
                }
                Err(e) => {
                    prop_assert_eq!(e.code, Code::InvalidInput);
                    let field = e.field.clone().unwrap_or_default();
                    prop_assert!(field.starts_with("filter."), "{}", field);
                    // The named member really is at fault.
                    let bad = match field.as_str() {
                        "filter.orderId" => f.order_id.as_deref().is_some_and(|v| v.trim_ascii().is_empty()),
                        "filter.paymentMethod" => f.payment_method.as_deref().is_some_and(|v| v.trim_ascii().is_empty()),
                        "filter.status" => f.status.as_deref().is_some_and(|v| !is_enum_value(v)),
                        "filter.dateFrom" => f.date_from.as_deref().is_some_and(|v| date("x", v).is_err())
                            || matches!((&f.date_from, &f.date_to), (Some(a), Some(b)) if a > b),
                        "filter.dateTo" => f.date_to.as_deref().is_some_and(|v| date("x", v).is_err()),
                        _ => false,
                    };
                    prop_assert!(bad, "{} blamed wrongly for {:?}", field, f);
                }
            }
        }

        #[test]
        fn pages_valid_iff_in_range(n in any::<i64>()) {
            prop_assert_eq!(page(n).is_ok(), (1..=MAX_GRAPHQL_INT).contains(&n));
            prop_assert_eq!(per_page(n).is_ok(), (1..=MAX_GRAPHQL_INT).contains(&n));
        }

        #[test]
        fn js_numbers_never_panic(x in any::<f64>()) {
            match integer(x, "page") {
                Ok(n) => { prop_assert!(x.is_finite() && x.fract() == 0.0); let _ = page(n); }
                Err(e) => prop_assert_eq!(e.field.as_deref(), Some("page")),
            }
        }

        #[test]
        fn field_names_match_the_regex(s in "[_A-Za-z0-9 .{}\"-]{0,10}") {
            let reference = !s.is_empty()
                && (s.as_bytes()[0] == b'_' || s.as_bytes()[0].is_ascii_alphabetic())
                && s.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric());
            prop_assert_eq!(is_name(&s), reference);
            let paths_ok = s.split('.').all(|p| !p.is_empty()
                && (p.as_bytes()[0] == b'_' || p.as_bytes()[0].is_ascii_alphabetic())
                && p.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric()));
            prop_assert_eq!(fields(std::slice::from_ref(&s)).is_ok(), paths_ok);
        }
    }
}

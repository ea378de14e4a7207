//! The repair catalogue (spec §5): every rule's code, threshold name, class,
//! severity, message and whether it chooses between readings.

/// What a repair does to the value (spec §5 "Class").
///
/// ```
/// use jsonmend_engine::{Class, Rule};
/// assert_eq!(Rule::TrailingComma.class(), Class::Cosmetic);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Only a flag: the text is unchanged (R062).
    Exact,
    /// Only syntax added or removed; the value is what the input spells.
    Cosmetic,
    /// Content synthesized, dropped or replaced, or structure/type guessed.
    Lossy,
}

/// How much a repair can change the meaning (the repair's `severity`).
///
/// ```
/// use jsonmend_engine::{Rule, Severity};
/// assert_eq!(Rule::TrailingComma.severity(), Severity::Low);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// Cannot change the meaning.
    Low,
    /// A heuristic reading the input supports.
    Medium,
    /// Content synthesized or dropped, or a choice between readings.
    High,
}

impl Severity {
    /// The protocol spelling: `low`, `medium`, `high`.
    ///
    /// ```
    /// assert_eq!(jsonmend_engine::Severity::Medium.as_str(), "medium");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
        }
    }
}

macro_rules! rules {
    ($($variant:ident = $num:literal, $code:literal, $threshold:literal, $class:ident, $sev:ident, $defect:literal, $action:literal;)*) => {
        /// One rule of the repair catalogue (spec §5).
        ///
        /// ```
        /// use jsonmend_engine::Rule;
        /// let r = jsonmend_engine::repair_text("[1 2]").unwrap();
        /// assert_eq!(r.repairs[0].rule, Rule::MissingComma);
        /// assert_eq!(Rule::MissingComma.code(), "R042");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Rule {
            $(
                #[doc = concat!("`", $code, "` `", $threshold, "`: ", $defect, "; ", $action, ".")]
                $variant = $num,
            )*
        }

        impl Rule {
            /// Every rule, in code order.
            ///
            /// ```
            /// use jsonmend_engine::Rule;
            /// assert!(Rule::ALL.windows(2).all(|w| w[0].number() < w[1].number()));
            /// ```
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The code, e.g. `"R040"`.
            ///
            /// ```
            /// assert_eq!(jsonmend_engine::Rule::TrailingComma.code(), "R040");
            /// ```
            pub fn code(self) -> &'static str {
                match self { $(Rule::$variant => $code,)* }
            }

            /// The rule name used as `threshold` (and in `Options::deny`).
            ///
            /// ```
            /// assert_eq!(jsonmend_engine::Rule::TrailingComma.threshold(), "trailing_comma");
            /// ```
            pub fn threshold(self) -> &'static str {
                match self { $(Rule::$variant => $threshold,)* }
            }

            /// The rule's class.
            ///
            /// ```
            /// use jsonmend_engine::{Class, Rule};
            /// assert_eq!(Rule::TruncatedString.class(), Class::Lossy);
            /// ```
            #[inline]
            pub fn class(self) -> Class {
                match self { $(Rule::$variant => Class::$class,)* }
            }

            /// The rule's severity.
            ///
            /// ```
            /// use jsonmend_engine::{Rule, Severity};
            /// assert_eq!(Rule::UnquotedString.severity(), Severity::Medium);
            /// ```
            pub fn severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$sev,)* }
            }

            /// The defect half of the message (before `; `), with `{token}`
            /// or `{key}` placeholders.
            ///
            /// ```
            /// assert_eq!(jsonmend_engine::Rule::UnquotedKey.defect(), "unquoted key {key}");
            /// ```
            pub fn defect(self) -> &'static str {
                match self { $(Rule::$variant => $defect,)* }
            }

            /// The action half of the message (after `; `).
            ///
            /// ```
            /// assert_eq!(jsonmend_engine::Rule::UnquotedKey.action(), "quoted");
            /// ```
            pub fn action(self) -> &'static str {
                match self { $(Rule::$variant => $action,)* }
            }

            /// Looks a rule up by its `threshold` name.
            ///
            /// ```
            /// use jsonmend_engine::Rule;
            /// assert_eq!(Rule::from_threshold("python_literal"), Some(Rule::PythonLiteral));
            /// assert_eq!(Rule::from_threshold("nope"), None);
            /// ```
            pub fn from_threshold(name: &str) -> Option<Rule> {
                match name { $($threshold => Some(Rule::$variant),)* _ => None }
            }

            /// The number of the code (40 for R040).
            ///
            /// ```
            /// assert_eq!(jsonmend_engine::Rule::TrailingComma.number(), 40);
            /// ```
            #[inline]
            pub fn number(self) -> u8 {
                self as u8
            }
        }
    };
}

rules! {
    Bom = 1, "R001", "bom", Cosmetic, Low, "byte order mark", "removed";
    SpecialWhitespace = 2, "R002", "special_whitespace", Cosmetic, Low, "non-ASCII whitespace {ws} between tokens", "replaced with a space";
    LineComment = 3, "R003", "line_comment", Cosmetic, Low, "line comment", "removed";
    BlockComment = 4, "R004", "block_comment", Cosmetic, Low, "block comment", "removed";
    CodeFence = 5, "R005", "code_fence", Cosmetic, Low, "markdown code fence", "removed";
    LeadingProse = 6, "R006", "leading_prose", Cosmetic, Low, "text before the JSON", "skipped";
    TrailingProse = 7, "R007", "trailing_prose", Cosmetic, Low, "text after the JSON", "skipped";
    WrapperMarkup = 8, "R008", "wrapper_markup", Cosmetic, Low, "wrapper markup {token}", "removed";
    JsonpWrapper = 9, "R009", "jsonp_wrapper", Cosmetic, Low, "call wrapper {token}", "removed";
    EscapedDocument = 10, "R010", "escaped_document", Cosmetic, Medium, "backslash-escaped JSON", "unescaped one level";
    SingleQuotes = 11, "R011", "single_quotes", Cosmetic, Low, "single-quoted string", "requoted";
    TypographicQuotes = 12, "R012", "typographic_quotes", Cosmetic, Low, "typographic or backtick quotes", "requoted";
    UnquotedKey = 13, "R013", "unquoted_key", Cosmetic, Low, "unquoted key {key}", "quoted";
    UnquotedString = 14, "R014", "unquoted_string", Cosmetic, Medium, "unquoted text {token}", "quoted as a string";
    InnerQuote = 15, "R015", "inner_quote", Cosmetic, Medium, "unescaped quote inside a string", "escaped";
    RawControlChar = 16, "R016", "raw_control_char", Cosmetic, Low, "raw control character {ws} in a string", "escaped";
    MissingOpenQuote = 17, "R017", "missing_open_quote", Cosmetic, Medium, "string without an opening quote", "quote added";
    DoubledQuotes = 18, "R018", "doubled_quotes", Cosmetic, Medium, "doubled quotes around a string", "collapsed";
    StringConcat = 19, "R019", "string_concat", Cosmetic, Low, "string concatenation with +", "joined";
    JsEscape = 20, "R020", "js_escape", Cosmetic, Low, "non-JSON escape {token}", "decoded";
    InvalidEscape = 21, "R021", "invalid_escape", Lossy, High, "invalid escape {token}", "backslash kept as text";
    LoneSurrogate = 22, "R022", "lone_surrogate", Lossy, High, "unpaired surrogate {token}", "replaced with U+FFFD";
    InvalidUtf8 = 23, "R023", "invalid_utf8", Lossy, High, "invalid UTF-8 sequence", "replaced with U+FFFD";
    MissingCloseQuote = 24, "R024", "missing_close_quote", Lossy, Medium, "string without a closing quote", "closed before the next item";
    KeyColonSplit = 25, "R025", "key_colon_split", Lossy, Medium, "key without a closing quote", "closed at the colon";
    PythonLiteral = 30, "R030", "python_literal", Cosmetic, Low, "non-JSON literal {token}", "normalized";
    UndefinedLiteral = 31, "R031", "undefined_literal", Cosmetic, Low, "literal undefined", "replaced with null";
    NonFinite = 32, "R032", "non_finite", Lossy, High, "non-finite number {token}", "written as a string";
    NumberSign = 33, "R033", "number_sign", Cosmetic, Low, "non-JSON sign in {token}", "normalized";
    NumberPoint = 34, "R034", "number_point", Cosmetic, Low, "bare decimal point in {token}", "zero added";
    DigitSeparator = 35, "R035", "digit_separator", Cosmetic, Low, "digit separators in {token}", "removed";
    NumberLikeString = 36, "R036", "number_like_string", Cosmetic, Medium, "non-JSON number {token}", "kept as a string";
    DanglingExponent = 37, "R037", "dangling_exponent", Lossy, Medium, "exponent without digits in {token}", "removed";
    TrailingComma = 40, "R040", "trailing_comma", Cosmetic, Low, "trailing comma", "removed";
    ExtraComma = 41, "R041", "extra_comma", Cosmetic, Low, "extra comma", "removed";
    MissingComma = 42, "R042", "missing_comma", Cosmetic, Low, "missing comma", "inserted";
    MissingColon = 43, "R043", "missing_colon", Cosmetic, Low, "missing colon after key {key}", "inserted";
    SeparatorVariant = 44, "R044", "separator_variant", Cosmetic, Low, "non-JSON separator {token}", "normalized";
    RedundantCloser = 50, "R050", "redundant_closer", Cosmetic, Low, "closing bracket with nothing to close", "removed";
    MismatchedCloser = 51, "R051", "mismatched_closer", Cosmetic, Medium, "mismatched closing bracket {token}", "matched";
    ImplicitClose = 52, "R052", "implicit_close", Lossy, Medium, "new element before the object was closed", "object closed";
    ImplicitObject = 53, "R053", "implicit_object", Lossy, Medium, "key and colon outside an object", "object opened";
    ObjectContinuation = 54, "R054", "object_continuation", Lossy, Medium, "members after the object was closed", "object reopened";
    MergedContainer = 55, "R055", "merged_container", Lossy, High, "stray container after a member", "merged into it";
    Tuple = 56, "R056", "tuple", Cosmetic, Low, "parenthesized tuple", "converted to an array";
    KnownCall = 57, "R057", "known_call", Cosmetic, Medium, "constructor {token}", "unwrapped";
    UnknownCall = 58, "R058", "unknown_call", Lossy, High, "call {token}", "unwrapped";
    KeyWithoutValue = 60, "R060", "key_without_value", Lossy, High, "key {key} without a value", "null added";
    MissingValue = 61, "R061", "missing_value", Lossy, High, "missing value for {key}", "null added";
    DuplicateKey = 62, "R062", "duplicate_key", Exact, High, "duplicate key {key}", "kept, readers differ";
    MissingKey = 63, "R063", "missing_key", Lossy, High, "value without a key", "empty key added";
    Ellipsis = 64, "R064", "ellipsis", Lossy, High, "placeholder {token}", "removed";
    Garbage = 65, "R065", "garbage", Lossy, High, "unexpected {token}", "removed";
    TruncatedString = 70, "R070", "truncated_string", Lossy, High, "string cut off at end of input", "closed";
    TruncatedEscape = 71, "R071", "truncated_escape", Lossy, High, "escape cut off at end of input", "removed";
    TruncatedLiteral = 72, "R072", "truncated_literal", Lossy, High, "literal {token} cut off", "completed";
    TruncatedNumber = 73, "R073", "truncated_number", Lossy, High, "number {token} cut off", "completed";
    TruncatedMember = 74, "R074", "truncated_member", Lossy, High, "member {key} cut off after its key", "null added";
    TruncatedContainer = 75, "R075", "truncated_container", Lossy, High, "unclosed object or array at end of input", "closed";
    CloserInString = 76, "R076", "closer_in_string", Lossy, High, "closing brackets inside an unterminated string", "moved out";
    MultipleDocuments = 80, "R080", "multiple_documents", Lossy, High, "several JSON values", "wrapped in an array";
    ProseAsString = 81, "R081", "prose_as_string", Lossy, High, "no JSON value", "whole text kept as a string";
    CoerceNumber = 90, "R090", "coerce_number", Lossy, Medium, "string {token} where a number is declared", "converted";
    CoerceBoolean = 91, "R091", "coerce_boolean", Lossy, Medium, "string {token} where a boolean is declared", "converted";
    CoerceString = 92, "R092", "coerce_string", Lossy, Medium, "{token} where a string is declared", "converted";
    DecodeEmbedded = 93, "R093", "decode_embedded", Lossy, Medium, "JSON text in a string where a container is declared", "decoded";
}

impl Rule {
    /// The ambiguity tag: the threshold name for the ten rules that choose
    /// between readings (spec §5), else `None`.
    ///
    /// ```
    /// use jsonmend_engine::Rule;
    /// assert_eq!(Rule::DuplicateKey.ambiguity(), Some("duplicate_key"));
    /// assert_eq!(Rule::TrailingComma.ambiguity(), None);
    /// ```
    pub fn ambiguity(self) -> Option<&'static str> {
        match self {
            Rule::InvalidEscape
            | Rule::LoneSurrogate
            | Rule::NonFinite
            | Rule::MergedContainer
            | Rule::UnknownCall
            | Rule::KeyWithoutValue
            | Rule::MissingValue
            | Rule::DuplicateKey
            | Rule::CloserInString
            | Rule::MultipleDocuments => Some(self.threshold()),
            _ => None,
        }
    }

    /// Whether the rule is one of the truncation repairs R070–R076.
    ///
    /// ```
    /// use jsonmend_engine::Rule;
    /// assert!(Rule::TruncatedString.is_truncation());
    /// assert!(!Rule::TrailingComma.is_truncation());
    /// ```
    pub fn is_truncation(self) -> bool {
        (70..=76).contains(&self.number())
    }
}

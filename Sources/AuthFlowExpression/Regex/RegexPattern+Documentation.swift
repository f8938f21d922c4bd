import AuthFlowCore

extension RegexPattern {
  /// The dialect, as docs/functions.md prints it (generated, so it cannot drift from the engine).
  public static let documentation = """
    ## Regular expressions

    `matches()` and the `matches` matcher use authflow's own engine, which runs in time linear in
    the text whatever the pattern (a Thompson NFA, as RE2 and Go's `regexp`): `^(a+)+$` on a long
    run of `a`s ends at once instead of hanging. The dialect is RE2's, without Unicode classes:

    | syntax | meaning |
    |---|---|
    | `abc`, `\\.`, `\\\\`, `\\n \\t \\r \\f \\v \\0`, `\\xHH`, `\\x{HHHH}` | literals and escapes (any escaped punctuation is itself) |
    | `.` | any character but a newline (with `(?s)`, any at all) |
    | `[abc]`, `[a-z]`, `[^…]`, `[[:alpha:]]` | classes: ranges, negation, `alpha digit alnum upper lower space punct xdigit word cntrl print graph blank` |
    | `\\d \\w \\s`, `\\D \\W \\S` | ASCII digit, word character (`[0-9A-Za-z_]`), white space; and their complements |
    | `^ $`, `\\A \\z` | start and end of the text (with `(?m)`, `^ $` also at line breaks) |
    | `\\b \\B` | ASCII word boundary, not a word boundary |
    | `(…)`, `(?:…)`, `(?<name>…)`, `(?P<name>…)` | groups (names are accepted and ignored) |
    | `a\\|b` | alternation |
    | `* + ?`, `{m}`, `{m,}`, `{m,n}` | repetition, lazy forms (`*?`) accepted; counts up to \(InputLimits.regexRepetition) |
    | `(?i)`, `(?m)`, `(?s)`, `(?i:…)`, `(?-i)` | flags: case-insensitive, multi-line, dot matches newline |

    Not supported, each an error that names it (at validate time when the pattern is written in the
    scenario): backreferences (`\\1`, `\\k<name>`, `(?P=name)`), lookahead and lookbehind
    (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`), atomic groups, possessive quantifiers (`a++`) and
    Unicode property classes (`\\p{L}`).

    Limits: a pattern has at most \(InputLimits.regexPatternLength) characters and compiles to at most
    \(RegexProgram.limit) instructions (counted repetitions expanded); a text matched has at most
    \(InputLimits.regexInputLength) characters. A long match also stops when its step times out or the
    run is interrupted.
    """
}

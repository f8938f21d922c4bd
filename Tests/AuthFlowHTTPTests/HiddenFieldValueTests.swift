import Testing

@testable import AuthFlowHTTP

/// `hiddenFieldValues` reads `<input>` tags from text byte-wise: both quote styles, the `&amp;`
/// escape, secret names only, whatever characters come before.
@Suite struct HiddenFieldValueTests {
  @Test func secretFieldsOfEitherQuoteStyleAreFound() {
    let text = """
      <p>Ünïcödé 😀 first</p>
      <input type="hidden" name="code" value="CODE-1"/>
      <input type='hidden' name='ticket' value='a&amp;b'>
      <input name="email" value="alice@example.com">
      <input name="otp" value="">
      """
    let found = SecretExtraction.hiddenFieldValues(in: text)
    #expect(found.contains("CODE-1"))
    #expect(found.contains("a&amp;b") && found.contains("a&b"))
    #expect(!found.contains("alice@example.com"), "not a secret field")
    #expect(found.count == 3)
  }

  @Test func textWithoutInputsHasNone() {
    #expect(SecretExtraction.hiddenFieldValues(in: "name=\"code\" value=\"x\"").isEmpty)
  }
}

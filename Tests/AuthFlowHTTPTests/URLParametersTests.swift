import AuthFlowHTTP
import Testing

@Suite struct URLParametersTests {
  @Test func queryStringEncodesPerRFC3986() {
    let parameters: URLParameters = ["redirect_uri": "com.example.app://cb", "scope": "openid profile", "x": "a+b~._-"]
    #expect(parameters.queryString() == "redirect_uri=com.example.app%3A%2F%2Fcb&scope=openid%20profile&x=a%2Bb~._-")
  }

  @Test func formEncodingUsesPlusForSpaces() {
    let parameters: URLParameters = ["password": "p@ss word+1&é", "*": "~"]
    #expect(parameters.formEncoded() == "password=p%40ss+word%2B1%26%C3%A9&*=%7E")
    #expect(URLParameters(parsing: parameters.formEncoded(), decoding: .form) == parameters)
  }

  @Test func queryParsingKeepsPlusUnlessForm() {
    let url = "https://app.example.com/cb?code=a+b%2Bc&error_description=Wrong%20email&flag&&x="
    let query = URLParameters.query(of: url)
    #expect(query["code"] == "a+b+c")
    #expect(query["error_description"] == "Wrong email")
    #expect(query["flag"] == "")
    #expect(query.names == ["code", "error_description", "flag", "x"])
    #expect(URLParameters.query(of: url, decoding: .form)["code"] == "a b+c")
  }

  @Test func fragmentOffersDecodedAndRawValues() {
    let url = "https://app.example.com/cb#access_token=abc%2Edef&token_type=Bearer&state=x%20y"
    #expect(URLParameters.fragment(of: url)["state"] == "x y")
    #expect(URLParameters.fragment(of: url, decoding: .none)["state"] == "x%20y")
    #expect(URLParameters.fragment(of: url, decoding: .none)["access_token"] == "abc%2Edef")
  }

  @Test func subscriptSetsReplacesAndRemoves() {
    var parameters: URLParameters = ["a": "1", "b": "2"]
    parameters.append("a", "3")
    #expect(parameters.values(for: "a") == ["1", "3"])
    parameters["a"] = "9"
    #expect(parameters.pairs.map(\.value) == ["9", "2"])
    parameters["b"] = nil
    #expect(parameters.queryString() == "a=9")
  }

  @Test(arguments: [
    ("/login", "https://t.example.com/authorize?x=1", "https://t.example.com/login"),
    ("?state=2", "https://t.example.com/u/login?state=1", "https://t.example.com/u/login?state=2"),
    ("../up", "https://t.example.com/a/b/c", "https://t.example.com/a/up"),
    ("//cdn.example.com/x", "https://t.example.com/", "https://cdn.example.com/x"),
    ("com.example.app://cb?code=1", "https://t.example.com/", "com.example.app://cb?code=1"),
    ("", "https://t.example.com/p?q=1#frag", "https://t.example.com/p?q=1"),
  ])
  func relativeReferencesResolve(reference: String, base: String, expected: String) {
    #expect(URLResolution.resolve(reference, against: base) == expected)
  }

  @Test func appendingQueryKeepsExistingQueryAndFragment() {
    let url = URLResolution.appendingQuery(["b": "x y"], to: "https://t.example.com/p?a=1#f")
    #expect(url == "https://t.example.com/p?a=1&b=x%20y#f")
  }
}

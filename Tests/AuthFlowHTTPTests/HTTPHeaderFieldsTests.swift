import AuthFlowHTTP
import Testing

@Suite struct HTTPHeaderFieldsTests {
  @Test func lookupIsCaseInsensitiveAndOrderIsKept() {
    var headers: HTTPHeaderFields = ["Content-Type": "text/html", "Set-Cookie": "a=1"]
    headers.add(name: "set-cookie", value: "b=2")
    #expect(headers["content-type"] == "text/html")
    #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
    headers["Set-Cookie"] = "c=3"
    #expect(headers.map(\.name) == ["Content-Type", "Set-Cookie"])
    #expect(headers.values(for: "set-cookie") == ["c=3"])
    headers["CONTENT-TYPE"] = nil
    #expect(!headers.contains("content-type"))
    #expect(headers.count == 1)
  }

  @Test func responseConveniences() {
    let response = ClientResponse(
      status: 302, headers: ["Location": "../cb?x=1", "Content-Type": "Application/JSON; charset=utf-8"],
      body: Array(#"{"a":[1,true]}"#.utf8), url: "https://t.example.com/u/login")
    #expect(response.isRedirect)
    #expect(response.location == "https://t.example.com/cb?x=1")
    #expect(response.mediaType == "application/json")
    #expect(response.jsonValue == ["a": [1, true]])
    #expect(ClientResponse(status: 200, body: Array("<html>".utf8), url: "").jsonValue == nil)
  }

  @Test func methodsKnowIdempotence() {
    #expect(HTTPMethod.get.isIdempotent && HTTPMethod.put.isIdempotent && HTTPMethod.delete.isIdempotent)
    #expect(!HTTPMethod.post.isIdempotent && !HTTPMethod("patch").isIdempotent)
    #expect(HTTPMethod("post") == .post)
  }
}

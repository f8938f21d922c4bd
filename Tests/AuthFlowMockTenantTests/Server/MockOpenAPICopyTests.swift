import AuthFlowCore
import Foundation
import Testing

@testable import AuthFlowMockTenant

/// The mock's OpenAPI document exists once: the resource the mock serves at `/__mock/openapi.json`
/// and `authflow schema openapi` prints.
@Suite struct MockOpenAPICopyTests {
  /// One copy: the repository holds the document once (no second copy under `schemas/`), and what
  /// the mock serves and `authflow schema openapi` prints is that file, byte for byte.
  @Test func oneCommittedCopyIsTheOneServed() async throws {
    let committed = try Data(contentsOf: MockOpenAPITests.repository.appending(path: MockOpenAPITests.resource))
    #expect(
      !FileManager.default.fileExists(
        atPath: MockOpenAPITests.repository.appending(path: "schemas/mock-openapi.json").path))
    #expect(MockOpenAPIDocument.data == committed)
    #expect(MockOpenAPIDocument.text.map { Data($0.utf8) } == committed)
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let served = try await client.execute(uri: "/__mock/openapi.json", method: .get)
      #expect(served.status == .ok)
      #expect(Data(served.body.readableBytesView) == committed)
      #expect(served.json["openapi"] == .string("3.1.0"))
    }
  }

}

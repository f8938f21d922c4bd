import Testing

@testable import AuthFlowReporting

@Suite struct ReporterSpecTests {
  @Test func parsesEveryForm() throws {
    #expect(try ReporterSpec.parse("console") == ReporterSpec(name: "console"))
    #expect(try ReporterSpec.parse("github") == ReporterSpec(name: "github"))
    #expect(try ReporterSpec.parse("junit:out/junit.xml") == ReporterSpec(name: "junit", path: "out/junit.xml"))
    #expect(try ReporterSpec.parse("JSON:report.json") == ReporterSpec(name: "json", path: "report.json"))
    #expect(try ReporterSpec.parse("json:C:/reports/a.json").path == "C:/reports/a.json")
  }

  @Test func defaultsToConsoleAndDropsDuplicates() throws {
    #expect(try ReporterSpec.parseAll([]) == [ReporterSpec(name: "console")])
    #expect(
      try ReporterSpec.parseAll(["github", "junit:a.xml", "github", "junit:b.xml"]) == [
        ReporterSpec(name: "github"), ReporterSpec(name: "junit", path: "a.xml"),
        ReporterSpec(name: "junit", path: "b.xml"),
      ])
  }

  @Test func unknownListsTheValidFormsWithASuggestion() {
    #expect {
      try ReporterSpec.parse("junti:out.xml")
    } throws: { error in
      "\(error)"
        == "unknown reporter 'junti:out.xml'; did you mean 'junit'? (valid: 'console', 'github', 'html:FILE', 'json:FILE', 'junit:FILE')"
    }
    #expect {
      try ReporterSpec.parse("pdf")
    } throws: { error in
      "\(error)" == "unknown reporter 'pdf' (valid: 'console', 'github', 'html:FILE', 'json:FILE', 'junit:FILE')"
    }
  }

  @Test func aFileReporterNeedsItsFile() {
    for value in ["junit", "json:"] {
      #expect {
        try ReporterSpec.parse(value)
      } throws: { error in
        "\(error)".contains("needs a file to write: use '\(value.hasPrefix("junit") ? "junit" : "json"):FILE'")
      }
    }
  }

  @Test func consoleTakesNoFile() {
    #expect {
      try ReporterSpec.parse("console:out.txt")
    } throws: { error in
      "\(error)" == "reporter 'console:out.txt' writes to standard output and takes no file: use 'console'"
    }
  }
}

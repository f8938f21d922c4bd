import Testing

@testable import AuthFlowBenchmark

@Suite struct SampleStatisticsTests {
  @Test func medianOfAnOddCountIsTheMiddleSample() throws {
    let statistics = try #require(SampleStatistics([5, 1, 3]))
    #expect(statistics.median == 3)
    #expect(statistics.min == 1)
    #expect(statistics.max == 5)
    #expect(statistics.count == 3)
  }

  @Test func medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() throws {
    let statistics = try #require(SampleStatistics([4, 1, 3, 2]))
    #expect(statistics.median == 2.5)
  }

  @Test func p90InterpolatesBetweenNeighbours() throws {
    let statistics = try #require(SampleStatistics((1...11).map(Double.init)))
    #expect(statistics.p90 == 10)
    let ten = try #require(SampleStatistics((1...10).map(Double.init)))
    #expect(abs(ten.p90 - 9.1) < 1e-9)
  }

  @Test func noSamplesHaveNoStatistics() {
    #expect(SampleStatistics([]) == nil)
    #expect(SampleStatistics([.nan]) == nil)
  }
}

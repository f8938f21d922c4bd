extension Expr {
  /// Parses a bare expression, without `${{ }}` (as in `if: steps.login.status == 200`). Offsets
  /// are from the start of `source`.
  public static func parse(_ source: String) -> Result<Expr, ExpressionError> {
    do throws(ExpressionError) {
      var parser = try Parser(cursor: SourceCursor(bytes: Array(source.utf8)), mode: .bare)
      return .success(try parser.parseComplete().0)
    } catch {
      return .failure(error)
    }
  }
}

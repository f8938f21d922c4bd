import Testing

@testable import AuthFlowMail

@Suite struct HTMLTextTests {
  @Test(arguments: [
    ("a<br>b<br/>c", "a\nb\nc"),
    ("<p>one</p><p>two</p>", "one\n\ntwo"),
    ("<div>x</div><div>y</div>", "x\n\ny"),
    ("<ul><li>a</li><li>b</li></ul>", "- a\n- b"),
    ("a &lt;b&gt; &amp;&#65;&#x42;&#X43; &unknown; &#0;", "a <b> &ABC &unknown; &#0;"),
    ("<script>var a = '<p>';</script>shown<STYLE>p{}</STYLE>", "shown"),
    ("x<!-- hidden <b>bold</b> -->y<!-- never closed", "xy"),
    ("<a href=\"https://e.com/a?b=1&amp;c=2\">Confirm</a>", "Confirm (https://e.com/a?b=1&c=2)"),
    ("<A HREF='https://e.com'>https://e.com</A>", "https://e.com"),
    ("<a href=https://e.com/x><img src=logo.png></a>", "https://e.com/x"),
    ("<a name=top>Top</a>", "Top"),
    ("a < b and c > d", "a < b and c > d"),
    ("unclosed <b", "unclosed <b"),
    ("  lots   of\n\n  space  ", "lots of space"),
    ("<table><tr><td>1</td><td>2</td></tr></table>", "1 2"),
  ])
  func text(html: String, expected: String) {
    #expect(HTMLText.text(fromHTML: html) == expected)
  }
}

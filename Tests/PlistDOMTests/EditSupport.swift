import Testing
@testable import PlistDOM

/// `text` after `body`'s edits, as it prints. Every edit must leave a plist that parses and
/// prints back as it is.
func edited(_ text: String, _ body: (PlistDocument) throws -> Void) throws -> String {
    let document = try PlistDocument(parsing: text)
    try body(document)
    let output = String(decoding: document.bytes, as: UTF8.self)
    let reread = try PlistDocument(parsing: output)
    #expect(String(decoding: reread.bytes, as: UTF8.self) == output)
    return output
}

/// A plist whose root dict holds `body`, with `eol` for every line ending.
func plist(_ body: String, eol: String = "\n") -> String {
    ("<plist version=\"1.0\">\n<dict>\n" + body + "</dict>\n</plist>\n").replacingOccurrences(of: "\n", with: eol)
}

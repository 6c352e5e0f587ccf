import PlistDOM

/// A kind of change, the unit a reviewer accepts or rejects: one pass (and version) removing and
/// adding the same lines with the same effect on the policy, whatever the file and wherever in
/// it. Its id is a hash of all the review page shows of it, so an edit that differs in any way
/// from the one reviewed (the file changed since, a new pass version, a context line that changes
/// what the edit does to the policy) has another id and is not applied by a decision.
public enum EditGroup {
    /// `ATS001-1f2e3d4c5b6a`: the pass id, then 48 bits of the FNV-1a hash of the pass id and
    /// version, the diff's removed and added lines (trimmed of surrounding blanks, so the same
    /// edit in a file indented with tabs and one indented with spaces is one kind) and the lines
    /// of its policy delta (`policyDelta`: what the page shows the edit does to the policy).
    public static func id(pass: String, version: Int, diff: String, policyDelta: [String]) -> String {
        // The same bytes as hashing `lines(of:)` written out (`-line\n` for each removed line,
        // then `+line\n` for each added one), fed to the hash straight from the diff's UTF-8:
        // every changed file of a run gets an id, so no line strings are made.
        var hash = FNV1a.start
        FNV1a.add("\(pass)@\(version)\n".utf8, to: &hash)
        var diff = diff
        diff.withUTF8 { bytes in
            for marker in [UInt8(ascii: "-"), UInt8(ascii: "+")] {
                forEachChangedLine(bytes, marker: marker) { line in
                    FNV1a.add(CollectionOfOne(marker), to: &hash)
                    FNV1a.add(line, to: &hash)
                    FNV1a.add(CollectionOfOne(UInt8(ascii: "\n")), to: &hash)
                }
            }
        }
        // Each line of the policy delta after a `=` (a changed line could start with `-` or
        // `+` too, but never with `=`), so that no delta can pass for diff lines.
        // Read in place (a file of many domains has megabytes of them).
        for var line in policyDelta {
            FNV1a.add(CollectionOfOne(UInt8(ascii: "=")), to: &hash)
            line.withUTF8 { FNV1a.add($0, to: &hash) }
            FNV1a.add(CollectionOfOne(UInt8(ascii: "\n")), to: &hash)
        }
        let text = String(hash, radix: 16)
        let padded = String(repeating: "0", count: max(0, 16 - text.count)) + text
        return pass + "-" + padded.prefix(12)
    }

    /// Calls `body` with each line after the first hunk header that starts with `marker`, without
    /// the marker and trimmed as `trimmed(_:)` trims.
    private static func forEachChangedLine(_ bytes: UnsafeBufferPointer<UInt8>, marker: UInt8, _ body: (UnsafeBufferPointer<UInt8>.SubSequence) -> Void) {
        var start = 0
        var inHunks = false
        while start < bytes.count {
            // Found a block at a time: a diff of a large file is megabytes, read twice.
            let end = bytes.firstOffset(of: UInt8(ascii: "\n"), in: start..<bytes.count) ?? bytes.count
            if !inHunks {
                inHunks = end - start >= 2 && bytes[start] == UInt8(ascii: "@") && bytes[start + 1] == UInt8(ascii: "@")
            } else if end > start, bytes[start] == marker {
                var from = start + 1, to = end
                while to > from, bytes[to - 1] == 0x20 || bytes[to - 1] == 0x09 || bytes[to - 1] == 0x0D { to -= 1 }
                while from < to, bytes[from] == 0x20 || bytes[from] == 0x09 { from += 1 }
                body(bytes[from..<to])
            }
            start = end + 1
        }
    }

    /// The removed and added lines of a unified diff (headers and hunk lines left out), trimmed
    /// of surrounding blanks and a CR: what `id` hashes. Lines end at LF, also in a CRLF file's
    /// diff (Swift's `split` on "\n" would not split a "\r\n", one character to it).
    public static func lines(of diff: String) -> (removed: [String], added: [String]) {
        var removed: [String] = [], added: [String] = []
        var diff = diff
        diff.withUTF8 { bytes in
            forEachChangedLine(bytes, marker: UInt8(ascii: "-")) { removed.append(String(decoding: $0, as: UTF8.self)) }
            forEachChangedLine(bytes, marker: UInt8(ascii: "+")) { added.append(String(decoding: $0, as: UTF8.self)) }
        }
        return (removed, added)
    }
}

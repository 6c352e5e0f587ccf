import Foundation
import Testing
import Migrations
import PlistDOM
@testable import PlistMigrate
@testable import FileAccess

/// Migrations with deliberate bugs: the engine's independent check must refuse every one of
/// them, so a bug in a pass can never reach a file.
@Suite struct WriteSafetyTests {
    /// The write check's edited values: the edits' containers, without repeats and without
    /// those inside another, checked against a plain reference over random paths.
    @Test func editRegionsAreTheOutermostContainers() {
        var generator = SystemRandomNumberGenerator()
        let steps: [PathStep] = [.key("A"), .key("B"), .key("b"), .index(0), .index(1)]
        // 500 rounds of up to 12 edits at any depth, then 300 of up to 60 edits two or three
        // steps deep, where more than eight outermost containers (looked up by prefix rather
        // than compared one by one) occur.
        for round in 0..<800 {
            let edits = (0..<Int.random(in: 1...(round < 500 ? 12 : 60), using: &generator)).map { _ in
                PlannedEdit.remove(dict: (0..<Int.random(in: round < 500 ? 0...3 : 2...3, using: &generator)).map { _ in steps.randomElement(using: &generator)! }, key: "k")
            }
            let containers = Set(edits.map(\.container))
            let expected = containers.filter { path in !containers.contains { $0.count < path.count && path.starts(with: $0) } }
            let got = EditCheck.regions(of: edits)
            #expect(Set(got) == expected && got.count == expected.count, "\(edits.map(\.container))")
        }
    }

    /// Each edit goes to the edited value that holds it, in order, with few values (compared
    /// one by one) and many (looked up by prefix), as a plain reference says.
    @Test func editsAreGroupedByTheEditedValueHoldingThem() {
        var generator = SystemRandomNumberGenerator()
        let steps: [PathStep] = [.key("A"), .key("B"), .key("b"), .index(0), .index(1)]
        var many = 0
        for round in 0..<600 {
            let edits = (0..<Int.random(in: 1...(round < 300 ? 12 : 60), using: &generator)).map { _ in
                PlannedEdit.remove(dict: (0..<Int.random(in: round < 300 ? 0...3 : 2...3, using: &generator)).map { _ in steps.randomElement(using: &generator)! }, key: "k")
            }
            let regions = EditCheck.regions(of: edits).shuffled(using: &generator)
            if regions.count > 8 { many += 1 }
            let expected = regions.map { region in edits.filter { $0.container.starts(with: region) } }
            #expect(EditCheck.group(edits, by: regions) == expected, "\(edits.map(\.container))")
            // An edit no value holds is said to lie outside them (one value is taken to hold
            // every edit, as `regions(of:)` makes it).
            if let first = regions.first, regions.count > 2 {
                #expect(EditCheck.group(edits, by: Array(regions.dropFirst())) == nil || !edits.contains { $0.container.starts(with: first) })
            }
        }
        #expect(many > 50)
    }

    /// Renames a key outside NSAppTransportSecurity (and records it honestly).
    struct EditsOutsideATS: Migration {
        let id = "BUG001", version = 901, name = "edits-outside-ats", title = "bug", rationale = "Apple: none"
        let impact = Impact.spelling
        let intent = PolicyIntent.anyChange
        func apply(to session: MigrationSession) {
            if let entry = session.document.rootValue.entry("CFBundleName") { session.rename(entry, to: "Renamed") }
        }
    }

    /// Changes a value inside ATS without going through the session, so nothing is recorded.
    struct UnrecordedEdit: Migration {
        let id = "BUG002", version = 902, name = "unrecorded-edit", title = "bug", rationale = "Apple: none"
        let impact = Impact.spelling
        let intent = PolicyIntent.anyChange
        func apply(to session: MigrationSession) {
            guard let ats = session.appTransportSecurity, let entry = ats.entries.first, !entry.name.hasSuffix("Typo") else { return }
            session.document.rename(entry.key, to: entry.name + "Typo")
        }
    }

    /// Records one edit and makes another.
    struct MisrecordedEdit: Migration {
        let id = "BUG003", version = 903, name = "misrecorded-edit", title = "bug", rationale = "Apple: none"
        let impact = Impact.spelling
        let intent = PolicyIntent.anyChange
        func apply(to session: MigrationSession) {
            guard let ats = session.appTransportSecurity, let entry = ats.entries.first else { return }
            session.replace(entry.value, with: .bool(false))
            session.document.replace(entry.value, with: .string("not what was recorded"))
        }
    }

    /// Flips a value on every run, recording it honestly: the run never reaches a fixed point.
    struct NeverSettles: Migration {
        let id = "BUG004", version = 904, name = "never-settles", title = "bug", rationale = "Apple: none"
        let impact = Impact.spelling
        let intent = PolicyIntent.anyChange
        func apply(to session: MigrationSession) {
            guard let ats = session.appTransportSecurity, let entry = ats.entries.first else { return }
            session.replace(entry.value, with: .bool(!entry.value.isTrue))
        }
    }

    static let input = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>CFBundleName</key>
        \t<string>Demo</string>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSAllowsArbitraryLoads</key>
        \t\t<true/>
        \t</dict>
        </dict>
        </plist>

        """.utf8)

    @Test(arguments: [
        (EditsOutsideATS() as any Migration, "BUG001 edited CFBundleName, Renamed, outside the root keys it declares (NSAppTransportSecurity)"),
        (UnrecordedEdit() as any Migration, "bytes changed where no edit was recorded"),
        (MisrecordedEdit() as any Migration, "the rewritten values differ from the planned edits"),
        (NeverSettles() as any Migration, "the passes did not settle after 8 rounds"),
    ])
    func aBuggyPassIsRefusedAndNothingIsWritten(_ migration: any Migration, _ reason: String) throws {
        let plan = try MigrationPlan(registry: [migration])
        let result = FileMigrator(plan: plan).migrate(Self.input, path: "Info.plist", skipIfNotApplicable: false)
        #expect(result.status == .error)
        #expect(result.error?.message == "internal error (a bug in plist-migrate, please report it): \(reason); file left untouched")
        #expect(result.output == Self.input)
        #expect(result.passes.isEmpty)
    }

    @Test func theRealPassesRecordExactlyWhatTheyDo() throws {
        // Every fixture that changes: the recorded edits, applied to plain values, give the output.
        for id in ["ATS001", "ATS002", "ATS003", "ATS004"] {
            let folder = Paths.fixtures.appendingPathComponent(id)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".before.plist") {
                let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
                let document = try PlistDocument(parsing: bytes)
                let before = document.value
                let migration = try #require(MigrationRegistry.migration(id: id))
                let session = MigrationSession(document: document, migration: migration)
                migration.apply(to: session)
                #expect(PlannedEdit.apply(session.plannedEdits, to: before) == (try PlistDocument(parsing: document.bytes)).value,
                        "\(id)/\(file)")
                #expect(session.plannedEdits.count == session.editCount, "\(id)/\(file)")
            }
        }
    }

    /// Outputs no pass can make through the editing API, handed to the check directly: each
    /// replaces the ATS value (`<dict>` … `</dict>`) with something that must be refused.
    @Test(arguments: [
        ("<dict>\n\t\t<key>NSAllowsArbitraryLoads</key>\n\t\t<true/>\n\t", "the rewritten file does not parse"),
        ("<dict/><dict/>", "the rewritten value NSAppTransportSecurity does not parse"),
        ("<dict/> <!-- x -->", "bytes outside the edited values (NSAppTransportSecurity) changed"),
        ("<dict><key>a</key></dict>", "the rewritten value NSAppTransportSecurity does not parse"),
        ("<array/>", "the rewritten values differ from the planned edits"),
    ])
    func malformedOrMisplacedRewritesAreRefused(_ replacement: String, _ reason: String) throws {
        let text = String(decoding: Self.input, as: UTF8.self)
        let start = try #require(text.range(of: "<dict>\n\t\t<key>NSAllowsArbitraryLoads"))
        let end = try #require(text.range(of: "</dict>", range: start.upperBound..<text.endIndex))
        let output = Array(text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: replacement).utf8)
        // An edit that changes nothing makes the ATS dict the one edited value.
        let edits = [PlannedEdit.replace(dict: [.key("NSAppTransportSecurity")], key: "NSAllowsArbitraryLoads", value: .bool(true))]
        let failure = EditCheck.failure(original: Self.input, originalDocument: nil, output: output, edits: edits)
        #expect(failure?.hasPrefix(reason) == true, "\(failure ?? "accepted")")
        // A dry run's check (no whole-file parse) refuses every one as well.
        let dryRun = EditCheck.failure(original: Self.input, originalDocument: nil, output: output, edits: edits, wholeOutput: false)
        #expect(dryRun != nil, "a dry run accepted \(replacement)")
        // The unchanged value passes the same check; without any edit, no byte may change.
        #expect(EditCheck.failure(original: Self.input, originalDocument: nil, output: Self.input, edits: edits) == nil)
        #expect(EditCheck.failure(original: Self.input, originalDocument: nil, output: output, edits: []) == "bytes changed where no edit was recorded")
    }

    /// Edits in two sibling dicts: the bytes between them are outside every edited value, so a
    /// change there is refused although both dicts sit inside the one value that holds them.
    @Test func bytesBetweenTwoEditedValuesMustStay() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>A</key>
            \t<dict><key>x</key><true/></dict>
            \t<!-- between -->
            \t<key>B</key>
            \t<dict><key>y</key><true/></dict>
            </dict>
            </plist>

            """
        let edits: [PlannedEdit] = [
            .replace(dict: [.key("A")], key: "x", value: .bool(false)), .replace(dict: [.key("B")], key: "y", value: .bool(false)),
        ]
        let good = text.replacingOccurrences(of: "<true/>", with: "<false/>")
        #expect(EditCheck.failure(original: Array(text.utf8), originalDocument: nil, output: Array(good.utf8), edits: edits) == nil)
        let bad = good.replacingOccurrences(of: "between", with: "betwixt")
        #expect(EditCheck.failure(original: Array(text.utf8), originalDocument: nil, output: Array(bad.utf8), edits: edits)
            == "bytes outside the edited values (2 values) changed")
        let wrong = good.replacingOccurrences(of: "<key>y</key><false/>", with: "<key>y</key><true/>")
        #expect(EditCheck.failure(original: Array(text.utf8), originalDocument: nil, output: Array(wrong.utf8), edits: edits)
            == "the rewritten values differ from the planned edits")
    }

    /// In a dict of more than 16 keys (looked through by name, not pairwise), every repeat of a
    /// key is reported against its first copy, and names equal as strings are one key (`é`
    /// precomposed and `e` + U+0301), as Apple's reader, reading them as strings, counts them.
    @Test func duplicateKeysInALargeDictAreEachReportedAgainstTheFirst() throws {
        var domains = (0..<20).map { "<key>d\($0).example.com</key><dict/>\n" }
        domains.insert("<key>d5.example.com</key><dict/>\n", at: 9)
        domains.insert("<key>d5.example.com</key><dict/>\n", at: 14)
        domains += ["<key>caf\u{E9}.example.com</key><dict/>\n", "<key>cafe\u{301}.example.com</key><dict/>\n"]
        let text = "<plist><dict>\n<key>NSAppTransportSecurity</key><dict>\n<key>NSExceptionDomains</key><dict>\n"
            + domains.joined() + "</dict></dict></dict></plist>\n"
        let diagnostics = try #require(FileMigrator.duplicateKeyDiagnostics(try PlistDocument(parsing: text)))
        #expect(diagnostics.map(\.location.line) == [13, 18, 27])
        let expected = [
            "duplicate key \"d5.example.com\" (first at line 9);", "duplicate key \"d5.example.com\" (first at line 9);",
            "duplicate key \"cafe\u{301}.example.com\" (first at line 26);",
        ]
        #expect(diagnostics.count == expected.count)
        for (diagnostic, start) in zip(diagnostics, expected) { #expect(diagnostic.message.hasPrefix(start), "\(diagnostic.message)") }
    }

    /// Edits in 10 of 20 domains are checked against the values of those 10 alone (the paths
    /// looked up through one table of the domains' keys): a correct output passes, and one value
    /// left unedited, or one unedited domain changed, is caught.
    @Test func editsInManyDomainsAreCheckedOneByOne() throws {
        let domains = (0..<20).map { "<key>d\($0).example.com</key><dict><key>NSIncludesSubdomains</key><true/></dict>" }
        func file(_ domains: [String]) -> [UInt8] {
            Array(("<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>"
                + domains.joined() + "</dict></dict></dict></plist>").utf8)
        }
        let edited = Array(stride(from: 0, to: 20, by: 2))
        let edits = edited.map {
            PlannedEdit.replace(dict: [.key("NSAppTransportSecurity"), .key("NSExceptionDomains"), .key("d\($0).example.com")],
                                key: "NSIncludesSubdomains", value: .bool(false))
        }
        func output(_ changed: [Int]) -> [UInt8] {
            file(domains.enumerated().map { changed.contains($0.offset) ? $0.element.replacingOccurrences(of: "<true/>", with: "<false/>") : $0.element })
        }
        #expect(EditCheck.failure(original: file(domains), originalDocument: nil, output: output(edited), edits: edits) == nil)
        #expect(EditCheck.failure(original: file(domains), originalDocument: nil, output: output(edited.dropLast()), edits: edits)
            == "the rewritten values differ from the planned edits")
        #expect(EditCheck.failure(original: file(domains), originalDocument: nil, output: output(edited + [7]), edits: edits)
            == "bytes outside the edited values (10 values) changed")
    }

    /// The dry run's check parses the changed value at the depth it has in the file, so an
    /// edit that takes the file past libxml2's nesting limit is refused without the whole-file
    /// parse, as the write's check refuses it; the same edit higher up passes both.
    @Test func aDryRunRefusesAnEditThatNestsTooDeepForTheFile() throws {
        func document(depth: Int, leaf: String) -> [UInt8] {
            let open = String(repeating: "<dict><key>d</key>", count: depth)
            let close = String(repeating: "</dict>", count: depth)
            return Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\(open)<dict><key>x</key>\(leaf)</dict>\(close)</plist>\n".utf8)
        }
        // libxml2's limit, found rather than assumed (it differs between versions and options).
        let limit = try #require((1...5000).first { (try? PlistDocument(parsing: document(depth: $0, leaf: "<true/>"))) == nil })
        let nested = 12
        let leaf = String(repeating: "<array>", count: nested) + "<true/>" + String(repeating: "</array>", count: nested)
        let value = (0..<nested).reduce(PlistValue.bool(true)) { inner, _ in .array([inner]) }
        for (depth, refused) in [(limit - 2, true), (limit - 2 - nested - 4, false)] {
            let edits = [PlannedEdit.replace(dict: Array(repeating: .key("d"), count: depth), key: "x", value: value)]
            let original = document(depth: depth, leaf: "<true/>"), output = document(depth: depth, leaf: leaf)
            #expect(((try? PlistDocument(parsing: output)) == nil) == refused, "depth \(depth) of \(limit)")
            for whole in [true, false] {
                let failure = EditCheck.failure(original: original, originalDocument: nil, output: output, edits: edits, wholeOutput: whole)
                #expect((failure != nil) == refused, "depth \(depth) of \(limit), whole-file parse \(whole): \(failure ?? "accepted")")
            }
        }
    }

    @Test func aFileChangedOnDiskSinceItWasReadIsNotOverwritten() throws {
        let dir = try temporaryDirectory(onDisk: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("Info.plist").path
        try Data(Self.input).write(to: URL(fileURLWithPath: path))
        let (bytes, fingerprint) = try FileIO.load(path)
        try Data(Self.input + Array("<!-- edited meanwhile -->\n".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(throws: FileError.self) {
            try FileIO.replace(path, with: Array("new".utf8), expected: fingerprint, original: bytes)
        }
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == Self.input + Array("<!-- edited meanwhile -->\n".utf8))
    }
}

/// Another program that replaces the file by renaming its own version over it (editors,
/// `sed -i`, Xcode) in the last moment before the swap breaks no lease: the swap must notice
/// that what it took out is not the file read, and put that program's version back.
@Suite struct RenameRaceTests {
    static let input = WriteSafetyTests.input

    static func version(_ name: String) -> [UInt8] {
        Array(String(decoding: input, as: UTF8.self).replacingOccurrences(of: "Demo", with: name).utf8)
    }

    /// Stores the input in a new directory and replaces it with the "Migrated" version,
    /// running `meanwhile` in the window before the swap.
    static func replace(meanwhile: (_ directory: URL, _ path: String) -> Void) throws -> (URL, String, Result<ReplaceOutcome, FileError>) {
        let dir = try temporaryDirectory(onDisk: true)
        let path = dir.appendingPathComponent("Info.plist").path
        try Data(input).write(to: URL(fileURLWithPath: path))
        let (bytes, fingerprint) = try FileIO.load(path)
        let outcome = Result { () throws(FileError) in
            try FileIO.replace(path, with: version("Migrated"), expected: fingerprint, original: bytes) { meanwhile(dir, path) }
        }
        return (dir, path, outcome)
    }

    @Test func aVersionRenamedOverThePathBeforeTheSwapIsKept() throws {
        let (dir, path, outcome) = try Self.replace { dir, path in
            // `sed … > t && mv t Info.plist`, exactly in the window.
            let sideFile = dir.appendingPathComponent("t").path
            _ = FileManager.default.createFile(atPath: sideFile, contents: Data(Self.version("Edited")))
            rename(sideFile, path)
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        guard case .failure(let error) = outcome else { Issue.record("replaced: \(outcome)"); return }
        #expect(error.message.contains("replaced on disk by another program"), "\(error)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == Self.version("Edited"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "Info.plist" }
        #expect(leftovers.isEmpty, "temp files left: \(leftovers)")
    }

    @Test func withoutAnotherProgramTheSwapGoesThrough() throws {
        var hookRan = false
        let (dir, path, outcome) = try Self.replace { _, _ in hookRan = true }
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(hookRan && (try? outcome.get()) == .replaced)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == Self.version("Migrated"))
    }
}

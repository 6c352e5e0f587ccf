import Foundation
import Testing
@testable import PlistMigrate

/// The progress line never mixes into output: it is cleared before anything else
/// is printed.
@Suite struct ProgressTests {
    final class RecordingSink: OutputSink, @unchecked Sendable {
        var events: [(stream: String, text: String)] = []
        func standardOutput(_ bytes: [UInt8]) { events.append(("out", String(decoding: bytes, as: UTF8.self))) }
        func standardError(_ text: String) { events.append(("err", text)) }
    }

    @Test func progressIsClearedBeforeEveryOutput() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 1,200 files (more than two batches of Runner.batchSize), every third one needing a change.
        for index in 0..<1_200 {
            let fixture = index % 3 == 0 ? "ATS001/tabs.before.plist" : "ATS001/already-migrated.before.plist"
            _ = try copyFixture(fixture, to: directory, as: "App\(index)/Info.plist")
        }
        #expect(1_200 > 2 * Runner.batchSize)
        var options = RunOptions(paths: [directory.path])
        options.progress = true
        options.jobs = 2
        options.useConfig = false
        let sink = RecordingSink()
        _ = Runner(options: options, sink: sink).run()
        #expect(sink.events.contains { $0.stream == "err" && $0.text.hasSuffix(" files") }, "progress was shown")
        var progressOnScreen = false
        for event in sink.events {
            if event.stream == "err" && event.text.hasPrefix("\r") && event.text.hasSuffix(" files") {
                progressOnScreen = true
            } else if event.stream == "err" && event.text == "\r\u{1B}[K" {
                progressOnScreen = false
            } else {
                #expect(!progressOnScreen, "output printed over a progress line: \(event.text.prefix(40))")
            }
        }
    }
}

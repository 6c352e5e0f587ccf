import PlistDOM

/// Where a recipe step acts: keys from the root value, with `*` for every key of a dict and
/// `[]` for every item of an array. A key made of digits also picks that item of an array.
public struct RecipePath: Hashable, Sendable, CustomStringConvertible {
    public enum Component: Hashable, Sendable {
        case key(String)
        case anyKey
        case everyItem
    }

    public var components: [Component]

    public init(_ components: [Component]) {
        self.components = components
    }

    /// `NSAppTransportSecurity:NSExceptionDomains:*`: PlistBuddy's separator; a leading `:` is
    /// optional. Keys holding `:` need the list form of a path.
    public init(parsing text: String) {
        let body = text.hasPrefix(":") ? text.dropFirst() : Substring(text)
        components = body.isEmpty ? [] : body.split(separator: ":", omittingEmptySubsequences: false).map { Self.component(String($0)) }
    }

    public static func component(_ text: String) -> Component {
        switch text {
        case "*": .anyKey
        case "[]": .everyItem
        default: .key(text)
        }
    }

    public var description: String {
        components.map { component in
            switch component {
            case .key(let key): key
            case .anyKey: "*"
            case .everyItem: "[]"
            }
        }.joined(separator: ":")
    }

    /// The values `components` lead to from `start`, in document order.
    static func values(at components: ArraySlice<Component>, from start: PlistElement) -> [PlistElement] {
        guard let first = components.first else { return [start] }
        let rest = components.dropFirst()
        switch first {
        case .key(let key):
            if start.kind == .array, let position = Int(key) {
                guard position >= 0, let item = start.children.dropFirst(position).first else { return [] }
                return values(at: rest, from: item)
            }
            guard start.kind == .dict, let value = start[key: key] else { return [] }
            return values(at: rest, from: value)
        case .anyKey:
            guard start.kind == .dict else { return [] }
            return start.entries.flatMap { values(at: rest, from: $0.value) }
        case .everyItem:
            guard start.kind == .array else { return [] }
            return start.children.flatMap { values(at: rest, from: $0) }
        }
    }
}

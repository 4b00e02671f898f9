import KeyboardLinkKeymap

/// The part of the C preprocessor and devicetree syntax that ZMK `.keymap` files use, read into a tree of nodes
/// whose every token knows its line and column.
///
/// Handled: `//` and `/* */` comments, `#include` (recorded, not read: the files it names are ZMK's), object-like
/// `#define NAME tokens` (expanded where NAME appears, up to 16 deep, `\` continuing a line), nodes (`label: name
/// { ... };`, `/ { ... };`, `&label { ... };`) and properties (`name;`, `name = "text";`, `name = <cells>, <cells>;`).
/// Refused with line and column: function-like `#define`s, conditionals (`#if`, `#ifdef`, ...), anything else
/// the grammar does not know.
struct DevicetreeSource {
    /// A token with its place.
    struct Token: Equatable {
        enum Kind: Equatable {
            /// A name, number or key code: letters, digits and `_ - # . + @ ,` inside cells.
            case word
            /// A quoted string (the text without quotes, escapes resolved).
            case string
            /// One of `{ } ; = < > & ( ) , : / [ ]`.
            case symbol
        }
        var kind: Kind
        var text: String
        var position: SourcePosition
    }

    /// A property: `name = value;`.
    struct Property {
        var name: String
        var position: SourcePosition
        /// The value's tokens, `<`, `>` and `,` included.
        var value: [Token]

        /// The value as one string (`"text"`), nil for other shapes.
        var string: String? {
            value.count == 1 && value[0].kind == .string ? value[0].text : nil
        }

        /// The cells of every `<...>` group in order, without the brackets.
        var cells: [Token] {
            var result: [Token] = []
            var inside = false
            for token in value where token.kind == .symbol || inside {
                if token.kind == .symbol && token.text == "<" && !inside {
                    inside = true
                } else if token.kind == .symbol && token.text == ">" && inside {
                    inside = false
                } else if inside {
                    result.append(token)
                }
            }
            return result
        }
    }

    /// A node: `label: name { properties children };`.
    struct Node {
        var label: String?
        var name: String
        var position: SourcePosition
        var properties: [Property] = []
        var children: [Node] = []

        func property(_ name: String) -> Property? { properties.first { $0.name == name } }

        /// This node and every node below it, depth first.
        var allNodes: [Node] { [self] + children.flatMap(\.allNodes) }
    }

    static let maximumDepth = 32
    static let maximumExpansionDepth = 16
    static let maximumTokens = 1_000_000

    /// The root nodes in file order.
    private(set) var roots: [Node] = []
    /// The object-like `#define`s, by name.
    private(set) var defines: [String: [Token]] = [:]

    private var tokens: [Token] = []
    private var index = 0

    /// Reads a file.
    /// - Throws: `KeymapFileError` at the first thing it cannot read.
    init(_ text: String) throws(KeymapFileError) {
        let raw = try Self.lex(text, defines: &defines)
        tokens = try Self.expand(raw, defines: defines)
        while index < tokens.count {
            roots.append(try node(depth: 0))
        }
    }

    // MARK: Lexing and the preprocessor

    private static func lex(_ text: String, defines: inout [String: [Token]]) throws(KeymapFileError) -> [Token] {
        let characters = Array(text.unicodeScalars)
        var tokens: [Token] = []
        var line = 1
        var column = 1
        var offset = 0
        var atLineStart = true
        var directive: (name: String, position: SourcePosition, tokens: [Token])?

        func finishDirective() throws(KeymapFileError) {
            guard let current = directive else { return }
            directive = nil
            switch current.name {
            case "include":
                return
            case "define":
                guard let name = current.tokens.first, name.kind == .word else {
                    throw KeymapFileError(current.position, "#define needs a name")
                }
                guard name.text.first.map({ $0.isLetter || $0 == "_" }) == true else {
                    throw KeymapFileError(name.position, "'\(printable(name.text))' is not a name #define can define")
                }
                var body = Array(current.tokens.dropFirst())
                if let open = body.first, open.kind == .symbol, open.text == "(",
                    open.position.line == name.position.line,
                    open.position.column == name.position.column + name.text.count
                {
                    throw KeymapFileError(
                        name.position,
                        "function-like #define \(name.text)(...) is not supported; kblink expands object-like "
                            + "#defines only")
                }
                // A definition's tokens take the place of the name where it is used.
                body = body.map { Token(kind: $0.kind, text: $0.text, position: $0.position) }
                defines[name.text] = body
            case "undef":
                if let name = current.tokens.first { defines[name.text] = nil }
            default:
                throw KeymapFileError(
                    current.position,
                    "the preprocessor directive #\(printable(current.name)) is not supported; kblink reads "
                        + "#include, object-like #define and #undef")
            }
        }

        func append(_ token: Token) throws(KeymapFileError) {
            if directive != nil {
                directive?.tokens.append(token)
            } else {
                guard tokens.count < maximumTokens else {
                    throw KeymapFileError(token.position, "more than \(maximumTokens) tokens")
                }
                tokens.append(token)
            }
        }

        func advance(_ count: Int = 1) {
            for _ in 0..<count where offset < characters.count {
                if characters[offset] == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                offset += 1
            }
        }

        while offset < characters.count {
            let character = characters[offset]
            let next = offset + 1 < characters.count ? characters[offset + 1] : "\0"
            let position = SourcePosition(line: line, column: column)
            if character == "\n" {
                if directive != nil { try finishDirective() }
                atLineStart = true
                advance()
                continue
            }
            if character == " " || character == "\t" || character == "\r" || character == "\u{FEFF}" {
                advance()
                continue
            }
            if character == "\\" && (next == "\n" || next == "\r") {
                // A continued line: the directive goes on.
                advance(next == "\r" && offset + 2 < characters.count && characters[offset + 2] == "\n" ? 3 : 2)
                continue
            }
            if character == "/" && next == "/" {
                while offset < characters.count && characters[offset] != "\n" { advance() }
                continue
            }
            if character == "/" && next == "*" {
                advance(2)
                while offset < characters.count
                    && !(characters[offset] == "*" && offset + 1 < characters.count && characters[offset + 1] == "/")
                {
                    advance()
                }
                guard offset < characters.count else { throw KeymapFileError(position, "a comment is not closed") }
                advance(2)
                continue
            }
            if character == "#" && atLineStart && directive == nil, let name = directiveName(characters, after: offset)
            {
                advance()
                while offset < characters.count && (characters[offset] == " " || characters[offset] == "\t") {
                    advance()
                }
                advance(name.unicodeScalars.count)
                directive = (name, position, [])
                if name == "include" {
                    // The rest of the line is a file name, which kblink does not read.
                    while offset < characters.count && characters[offset] != "\n" { advance() }
                }
                continue
            }
            atLineStart = false
            if character == "\"" {
                advance()
                var text = ""
                while true {
                    guard offset < characters.count, characters[offset] != "\n" else {
                        throw KeymapFileError(position, "a string is not closed on its line")
                    }
                    let current = characters[offset]
                    if current == "\"" { break }
                    if current == "\\" && offset + 1 < characters.count {
                        advance()
                    }
                    text.unicodeScalars.append(characters[offset])
                    advance()
                }
                advance()
                try append(Token(kind: .string, text: text, position: position))
                continue
            }
            if isWordCharacter(character) {
                var word = ""
                while offset < characters.count && isWordCharacter(characters[offset]) {
                    word.unicodeScalars.append(characters[offset])
                    advance()
                }
                try append(Token(kind: .word, text: word, position: position))
                continue
            }
            if "{};=<>&(),:/[]|".unicodeScalars.contains(character) {
                advance()
                try append(Token(kind: .symbol, text: String(character), position: position))
                continue
            }
            throw KeymapFileError(position, "the character '\(printable(String(character)))' is not allowed here")
        }
        try finishDirective()
        return tokens
    }

    private static func isWordCharacter(_ character: Unicode.Scalar) -> Bool {
        switch character {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-", "#", ".", "+", "@": return true
        default: return false
        }
    }

    /// The preprocessor directives; a `#` line starting with another word is devicetree (`#binding-cells`), which
    /// the C preprocessor leaves alone when ZMK's build runs it over the file.
    private static let directiveNames: Set<String> = [
        "include", "define", "undef", "if", "ifdef", "ifndef", "elif", "else", "endif", "pragma", "error", "warning",
        "line",
    ]

    /// The directive after the `#` at `offset` (spaces allowed between), nil when the word there is not one.
    private static func directiveName(_ characters: [Unicode.Scalar], after offset: Int) -> String? {
        var index = offset + 1
        while index < characters.count && (characters[index] == " " || characters[index] == "\t") { index += 1 }
        var name = ""
        while index < characters.count && characters[index].properties.isAlphabetic && name.count < 16 {
            name.unicodeScalars.append(characters[index])
            index += 1
        }
        if index < characters.count && isWordCharacter(characters[index]) { return nil }
        return directiveNames.contains(name) ? name : nil
    }

    /// How many tokens a #define expands to (nil past `maximumTokens` or `maximumExpansionDepth`), memoized.
    private static func expandedSize(
        _ name: String, defines: [String: [Token]], depth: Int, expanding: Set<String>, sizes: inout [String: Int]
    ) -> Int? {
        if let known = sizes[name] { return known }
        guard depth < maximumExpansionDepth, let body = defines[name] else { return nil }
        var total = 0
        for token in body {
            if token.kind == .word, defines[token.text] != nil, !expanding.contains(token.text), token.text != name {
                guard
                    let inner = expandedSize(
                        token.text, defines: defines, depth: depth + 1, expanding: expanding.union([name]),
                        sizes: &sizes)
                else { return nil }
                total += inner
            } else {
                total += 1
            }
            if total > maximumTokens { return nil }
        }
        sizes[name] = total
        return total
    }

    /// Replaces every use of an object-like #define by its tokens (which take the place of the use).
    private static func expand(_ tokens: [Token], defines: [String: [Token]]) throws(KeymapFileError) -> [Token] {
        guard !defines.isEmpty else { return tokens }
        var sizes: [String: Int] = [:]
        var total = 0
        for token in tokens {
            guard token.kind == .word, defines[token.text] != nil else {
                total += 1
                continue
            }
            guard let size = expandedSize(token.text, defines: defines, depth: 0, expanding: [], sizes: &sizes),
                total + size <= maximumTokens
            else {
                throw KeymapFileError(
                    token.position,
                    "#define \(token.text) expands more than \(maximumExpansionDepth) deep or to more than "
                        + "\(maximumTokens) tokens")
            }
            total += size
        }
        var result: [Token] = []
        result.reserveCapacity(total)
        func add(_ token: Token, at position: SourcePosition, depth: Int, expanding: Set<String>)
            throws(KeymapFileError)
        {
            guard token.kind == .word, let body = defines[token.text], !expanding.contains(token.text) else {
                guard result.count < maximumTokens else {
                    throw KeymapFileError(position, "#defines expand to more than \(maximumTokens) tokens")
                }
                result.append(Token(kind: token.kind, text: token.text, position: position))
                return
            }
            guard depth < maximumExpansionDepth else {
                throw KeymapFileError(position, "#define \(token.text) expands more than \(maximumExpansionDepth) deep")
            }
            for inner in body {
                try add(inner, at: position, depth: depth + 1, expanding: expanding.union([token.text]))
            }
        }
        for token in tokens {
            try add(token, at: token.position, depth: 0, expanding: [])
        }
        return result
    }

    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.prefix(40).map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }

    // MARK: Parsing

    private var peek: Token? { index < tokens.count ? tokens[index] : nil }

    private var endPosition: SourcePosition { tokens.last?.position ?? .start }

    private mutating func next(_ what: String) throws(KeymapFileError) -> Token {
        guard let token = peek else { throw KeymapFileError(endPosition, "the file ends where \(what) should be") }
        index += 1
        return token
    }

    private mutating func expect(_ symbol: String, _ context: String) throws(KeymapFileError) {
        let token = try next("'\(symbol)' \(context)")
        guard token.kind == .symbol, token.text == symbol else {
            throw KeymapFileError(
                token.position, "expected '\(symbol)' \(context), found '\(Self.printable(token.text))'")
        }
    }

    private func isSymbol(_ token: Token?, _ symbol: String) -> Bool {
        token?.kind == .symbol && token?.text == symbol
    }

    /// `/ { ... };`, `&label { ... };`, `label: name { ... };` or `name { ... };`
    private mutating func node(depth: Int) throws(KeymapFileError) -> Node {
        let first = try next("a node")
        guard depth < Self.maximumDepth else { throw KeymapFileError(first.position, "nodes nested too deep") }
        var label: String?
        var name: String
        if isSymbol(first, "/") {
            name = "/"
        } else if isSymbol(first, "&") {
            let reference = try next("a label after '&'")
            guard reference.kind == .word else {
                throw KeymapFileError(reference.position, "expected a label after '&'")
            }
            name = "&" + reference.text
        } else if first.kind == .word {
            name = first.text
            if isSymbol(peek, ":") {
                index += 1
                label = first.text
                let named = try next("a node name after '\(first.text):'")
                guard named.kind == .word else {
                    throw KeymapFileError(named.position, "expected a node name after '\(first.text):'")
                }
                name = named.text
            }
        } else {
            throw KeymapFileError(first.position, "expected a node, found '\(Self.printable(first.text))'")
        }
        try expect("{", "to open node \(Self.printable(name))")
        var result = Node(label: label, name: name, position: first.position)
        while !isSymbol(peek, "}") {
            guard let token = peek else { throw KeymapFileError(first.position, "node \(name) is not closed") }
            // A property (`name;` or `name = ...;`) or a child node (`name {`, `label: name {`, `&label {`).
            let following = index + 1 < tokens.count ? tokens[index + 1] : nil
            if token.kind == .word && (isSymbol(following, "=") || isSymbol(following, ";")) {
                result.properties.append(try property())
            } else {
                result.children.append(try node(depth: depth + 1))
            }
        }
        index += 1
        try expect(";", "after the '}' of node \(Self.printable(name))")
        return result
    }

    private mutating func property() throws(KeymapFileError) -> Property {
        let name = try next("a property")
        var result = Property(name: name.text, position: name.position, value: [])
        if isSymbol(peek, ";") {
            index += 1
            return result
        }
        try expect("=", "after property \(name.text)")
        var insideCells = false
        while true {
            let token = try next("the value of \(name.text)")
            if token.kind == .symbol {
                switch token.text {
                case ";" where !insideCells:
                    guard !result.value.isEmpty else {
                        throw KeymapFileError(token.position, "property \(name.text) has no value")
                    }
                    return result
                case "<":
                    guard !insideCells else { throw KeymapFileError(token.position, "'<' inside '< >'") }
                    insideCells = true
                case ">":
                    guard insideCells else { throw KeymapFileError(token.position, "'>' without '<'") }
                    insideCells = false
                case "{", "}", ";":
                    throw KeymapFileError(
                        token.position, "'\(token.text)' inside the value of \(name.text): is a '>' or ';' missing?")
                default:
                    break
                }
            }
            result.value.append(token)
        }
    }
}

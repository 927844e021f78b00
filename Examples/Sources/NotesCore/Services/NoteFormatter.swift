import Foundation

/// Turns notes into the lines `notes` prints: `3f2a9c1b  2026-12-01 09:30  Buy milk`.
public struct NoteFormatter: Sendable {
    private let calendar: Calendar

    /// Creates a formatter that shows times in `timeZone`.
    public init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// One note as one line.
    public func line(for note: Note) -> String {
        "\(note.shortID)  \(timestamp(note.created))  \(note.text)"
    }

    /// `date` as `yyyy-MM-dd HH:mm`.
    public func timestamp(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "??" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
    }
}

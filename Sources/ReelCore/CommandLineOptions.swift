/// The command line's playback options, checked before anything starts so a nonsense value
/// is refused with a clear message and a non-zero exit status, not quietly clamped.
public struct CommandLineOptions: Equatable, Sendable {
    public var enqueue = false
    public var repeatEach: Int?
    public var gap: Seconds?
    public var rate: Double?

    public init(enqueue: Bool = false, repeatEach: Int? = nil, gap: Seconds? = nil, rate: Double? = nil) {
        self.enqueue = enqueue
        self.repeatEach = repeatEach
        self.gap = gap
        self.rate = rate
    }

    /// The first problem with the values, in words, or nil when all are usable.
    public var problem: String? {
        if let repeatEach, !PlayerModel.repeatRange.contains(repeatEach) {
            return String(format: tr("--repeat-each must be a whole number from %d to %d (got %d)."),
                          PlayerModel.repeatRange.lowerBound, PlayerModel.repeatRange.upperBound, repeatEach)
        }
        if let gap, !(gap.isFinite && PlayerModel.gapRange.contains(gap)) {
            return String(format: tr("--gap must be a number of seconds from %g to %g (got %@)."),
                          PlayerModel.gapRange.lowerBound, PlayerModel.gapRange.upperBound, "\(gap)")
        }
        if let rate, !(rate.isFinite && PlayerModel.rateRange.contains(rate)) {
            return String(format: tr("--rate must be a speed from %g to %g (got %@)."),
                          PlayerModel.rateRange.lowerBound, PlayerModel.rateRange.upperBound, "\(rate)")
        }
        return nil
    }

    /// Applies the options to the model (for this run; `--rate` is remembered like any speed change).
    @MainActor
    public func apply(to model: PlayerModel) {
        if let repeatEach { model.setRepeatEach(repeatEach) }
        if let gap { model.setGap(gap) }
        if let rate { model.setRate(rate) }
    }
}

extension KeymapSessions {
    /// Removes the profiles set aside more than 30 days ago and logs each one removed.
    func removeExpiredSetAsideProfiles() {
        for path in store.removeExpiredSetAside() {
            log(.info, "removed \(path): set aside more than 30 days ago")
        }
    }
}

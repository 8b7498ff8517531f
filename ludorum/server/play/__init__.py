"""Play: the games held in memory, the core that takes their steps, and the parts it is given."""

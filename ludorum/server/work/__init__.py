"""Work off the event loop: worker processes for disclosures, replays and searches."""

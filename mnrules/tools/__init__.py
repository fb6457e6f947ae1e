"""Tools that play many games or study one: simulate, sweep, rating (rate), skill, fuzz,
scenario, blunders, the rules' document (rules_doc), game logs and saves (log), where a
result came from (provenance) and stopping a long run cleanly (stopping)."""

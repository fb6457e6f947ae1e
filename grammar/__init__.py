"""The Lark grammar of the effect language. Data only."""

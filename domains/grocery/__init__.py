"""The grocery / retail domain: a shopping assistant that recommends products and acts on a per-trial store."""

"""Model access: the one chat client (direct or LiteLLM), provider paths and keys, retries and response caps, and the local model servers."""

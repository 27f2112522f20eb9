MODEL = dict(
    vocab_size=128,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    max_position_embeddings=64,
    pad_token_id=0,
    bos_token_id=1,
    eos_token_id=2,
)

LORA = dict(r=8, alpha=16, dropout=0.05, target_modules=("q_proj", "v_proj"))

TRAIN = dict(
    seed=42,
    steps=3,
    batch_size=4,
    query_len=12,
    passage_len=20,
    lr=2e-4,
    temperature=0.05,
    # "mean": mean-pool the last hidden states; "prompt_eol": hidden state that
    # the model produces for the token right after the prompt
    pooling="prompt_eol",
)

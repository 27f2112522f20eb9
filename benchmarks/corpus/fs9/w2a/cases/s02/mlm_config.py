BERT = {
    "vocab_size": 120,
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "intermediate_size": 64,
    "max_position_embeddings": 64,
    "type_vocab_size": 2,
    "hidden_act": "gelu",
    "tie_word_embeddings": True,
    "pad_token_id": 0,
}

SCHEDULE = {
    "steps": 12,
    "batch_size": 8,
    "seq_len": 20,
    "mask_prob": 0.2,
    "mask_token_id": 3,
    "lr": 1e-3,
    "train_encoder": False,
}

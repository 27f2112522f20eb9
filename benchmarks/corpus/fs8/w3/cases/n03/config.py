MODEL = dict(
    vocab_size=500,
    hidden_size=64,
    num_hidden_layers=4,
    num_attention_heads=4,
    intermediate_size=128,
    max_position_embeddings=64,
    num_labels=3,
)

TRAIN = dict(
    base_lr=3e-4,
    head_lr=1e-3,
    layer_decay=0.8,
    weight_decay=0.01,
    freeze_embeddings=True,
    grad_accum_steps=4,
    micro_batch=4,
    seq_len=24,
    optimizer_steps=3,
    max_grad_norm=1.0,
)

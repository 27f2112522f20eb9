MODEL = dict(
    vocab_size=200,
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=64,
    max_position_embeddings=64,
    hidden_dropout_prob=0.1,
    attention_probs_dropout_prob=0.1,
)

TRAIN = dict(
    num_labels=3,
    lr=5e-4,
    weight_decay=0.0,
    epochs=2,
    batch_size=8,
    seq_len=16,
    num_batches=6,
    frozen=["embeddings"],
)

import torch

from lm_model import LanguageModelingModel


MODEL_CONFIG = {
    "vocab_size": 120,
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "intermediate_size": 64,
    "max_position_embeddings": 64,
    "hidden_dropout_prob": 0.1,
    "attention_probs_dropout_prob": 0.1,
    "pad_token_id": 0,
}

TRAIN_ARGS = {
    "num_train_epochs": 2,
    "learning_rate": 1e-3,
    "evaluate_during_training": True,
    "evaluate_during_training_steps": 3,
    "logging_steps": 5,
}


def make_batches(n_batches, batch_size, seq_len, vocab_size, seed):
    g = torch.Generator().manual_seed(seed)
    batches = []
    for _ in range(n_batches):
        ids = torch.randint(5, vocab_size, (batch_size, seq_len), generator=g)
        ids[:, 0] = 2
        ids[:, -1] = 3
        batches.append(ids)
    return batches


def main():
    lm = LanguageModelingModel(MODEL_CONFIG, TRAIN_ARGS)
    train_batches = make_batches(5, 8, 16, MODEL_CONFIG["vocab_size"], seed=0)
    eval_batches = make_batches(2, 8, 16, MODEL_CONFIG["vocab_size"], seed=1)
    global_step, scores = lm.train_model(train_batches, eval_batches)
    for step, loss in scores:
        print(f"eval @ {step}: {loss:.4f}")
    print("finished", global_step, "steps")
    return lm


if __name__ == "__main__":
    lm = main()

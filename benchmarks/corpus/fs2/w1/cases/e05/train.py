import torch
import torch.nn.functional as F

from config import LORA, MODEL, TRAIN
from model import DecoderEmbedder


def random_batch(batch_size, length, vocab):
    input_ids = torch.randint(3, vocab, (batch_size, length))
    input_ids[:, 0] = MODEL["bos_token_id"]
    return {"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids)}


def contrastive_loss(q, p, temperature):
    scores = q @ p.t() / temperature
    labels = torch.arange(q.size(0))
    return F.cross_entropy(scores, labels)


def main():
    torch.manual_seed(TRAIN["seed"])
    model = DecoderEmbedder(MODEL, LORA, TRAIN["pooling"])
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=TRAIN["lr"])
    print(f"trainable params: {sum(p.numel() for p in params)}")

    for step in range(TRAIN["steps"]):
        qry = random_batch(TRAIN["batch_size"], TRAIN["query_len"], MODEL["vocab_size"])
        psg = random_batch(TRAIN["batch_size"], TRAIN["passage_len"], MODEL["vocab_size"])
        q_reps = model(qry)
        p_reps = model(psg)
        loss = contrastive_loss(q_reps, p_reps, TRAIN["temperature"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    main()

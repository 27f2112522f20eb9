import torch
import torch.nn.functional as F

from model import Tagger, only_train_rows_from

BASE_VOCAB = 120
SPECIAL_TOKENS = ["<ent>", "</ent>", "<rel>", "</rel>"]
OPTIM = {"lr": 1e-2, "weight_decay": 0.0}


def sample(bs, seq, vocab, specials):
    tokens = torch.randint(0, vocab, (bs, seq))
    pos = torch.randint(0, seq, (bs,))
    tokens[torch.arange(bs), pos] = torch.randint(vocab, vocab + specials, (bs,))
    tags = tokens % 6
    return tokens, tags


def main():
    model = Tagger(BASE_VOCAB)
    start = model.resize_token_embeddings(BASE_VOCAB + len(SPECIAL_TOKENS))
    handle = only_train_rows_from(model.embedding, start)
    opt = torch.optim.Adam(model.parameters(), **OPTIM)
    for step in range(15):
        tokens, tags = sample(8, 16, BASE_VOCAB, len(SPECIAL_TOKENS))
        logits = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tags.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 4:
            print(f"step {step}  loss {loss.item():.4f}")
    handle.remove()
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    model = main()

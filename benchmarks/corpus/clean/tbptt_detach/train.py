import torch
import torch.nn as nn

VOCAB, BPTT = 50, 10


class LSTMLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 32)
        self.lstm = nn.LSTM(32, 64, batch_first=True)
        self.out = nn.Linear(64, VOCAB)

    def forward(self, tokens, state=None):
        h, state = self.lstm(self.embed(tokens), state)
        return self.out(h), state


def detach_state(state):
    return tuple(s.detach() for s in state)


def main():
    torch.manual_seed(0)
    model = LSTMLM()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    criterion = nn.CrossEntropyLoss()
    stream = torch.randint(0, VOCAB, (4, 61))
    state = None
    for epoch in range(2):
        for i in range(0, stream.size(1) - 1, BPTT):
            inp, tgt = stream[:, i:i + BPTT], stream[:, i + 1:i + 1 + BPTT]
            if state is not None:
                state = detach_state(state)
            logits, state = model(inp, state)
            loss = criterion(logits.reshape(-1, VOCAB), tgt.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

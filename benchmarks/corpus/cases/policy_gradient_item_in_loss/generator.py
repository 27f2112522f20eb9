import torch
import torch.nn as nn

ALPHABET = "<>CNO()=1"


class CharRNN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(len(ALPHABET), hidden)
        self.gru = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, len(ALPHABET))
        self.hidden_size = hidden
        self.optimizer = torch.optim.Adam(self.parameters(), lr=1e-2)

    def init_hidden(self):
        return torch.zeros(1, self.hidden_size)

    def forward(self, char_idx, hidden):
        hidden = self.gru(self.embed(char_idx.view(1)), hidden)
        return self.out(hidden), hidden

    @torch.no_grad()
    def evaluate(self, max_len=12):
        hidden, idx, chars = self.init_hidden(), torch.tensor(0), "<"
        for _ in range(max_len):
            logits, hidden = self(idx, hidden)
            idx = torch.multinomial(logits.softmax(-1), 1).view(())
            chars += ALPHABET[idx]
            if ALPHABET[idx] == ">":
                break
        return chars


def char_tensor(s):
    return torch.tensor([ALPHABET.index(c) for c in s])

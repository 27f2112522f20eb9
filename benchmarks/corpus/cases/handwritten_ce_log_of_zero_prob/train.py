import torch
import torch.nn.functional as F

from model import DecomposableAttention

VOCAB, EMBEDDING_DIM = 200, 100


def nli_loss(label_logits, labels):
    label_probs = F.softmax(label_logits, dim=-1)
    log_label_probs = -torch.log(label_probs)
    loss = log_label_probs * F.one_hot(labels, 3).float()
    return torch.sum(loss) / labels.shape[0]


def main():
    torch.manual_seed(0)
    glove = 3.0 * torch.randn(VOCAB, EMBEDDING_DIM)  # stand-in for the pretrained vectors
    model = DecomposableAttention(glove)
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)
    for step in range(4):
        premise = torch.randint(0, VOCAB, (8, 12))
        hypothesis = torch.randint(0, VOCAB, (8, 9))
        labels = torch.randint(0, 3, (8,))
        loss = nli_loss(model(premise, hypothesis), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        nan_weights = any(torch.isnan(p).any().item() for p in model.parameters())
        print(f"step {step}: loss {loss.item():.4f}  nan in weights: {nan_weights}")


if __name__ == "__main__":
    main()

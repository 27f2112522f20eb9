import compat  # noqa: F401
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from transformers import BertConfig

from data import DialogueGraphDataset, collate
from model import DialogueGraphClassifier

MAX_NODES = 4


def main():
    torch.manual_seed(0)
    config = BertConfig(vocab_size=500, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=128, max_position_embeddings=32)
    model = DialogueGraphClassifier(config)
    dataset = DialogueGraphDataset(16, config.vocab_size, max_nodes=MAX_NODES)
    loader = DataLoader(dataset, batch_size=4, shuffle=False,
                        collate_fn=lambda b: collate(b, MAX_NODES))
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5, weight_decay=0.01)
    model.train()
    for step, (input_ids, node_mask, labels) in enumerate(loader):
        logits = model(input_ids, node_mask)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f} nodes {int(node_mask.sum())}")


if __name__ == "__main__":
    main()

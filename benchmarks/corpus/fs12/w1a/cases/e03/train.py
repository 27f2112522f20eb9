import argparse

import torch

from model_utils import CRFlessTokenModel


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vocab_size", type=int, default=500)
    parser.add_argument("--num_tags", type=int, default=9)
    parser.add_argument("--max_seq_len", type=int, default=24)
    parser.add_argument("--train_batch_size", type=int, default=16)
    parser.add_argument("--train_epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=2e-4)
    parser.add_argument("--max_grad_norm", type=float, default=1.0)
    parser.add_argument("--loss_type", default="ls_ce")
    return parser.parse_args()


def build_dataset(args, n=64):
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(1, args.vocab_size, (n, args.max_seq_len), generator=g)
    lengths = torch.randint(8, args.max_seq_len + 1, (n,), generator=g)
    masks = (torch.arange(args.max_seq_len)[None, :] < lengths[:, None]).long()
    ids = ids * masks
    labels = torch.randint(0, args.num_tags, (n, args.max_seq_len), generator=g) * masks
    return torch.utils.data.TensorDataset(ids, masks, labels)


def train(args, model, dataset):
    loader = torch.utils.data.DataLoader(dataset, batch_size=args.train_batch_size, shuffle=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    global_step = 0
    for epoch in range(args.train_epochs):
        for token_ids, attention_masks, labels in loader:
            model.train()
            loss = model(token_ids, attention_masks, labels)[0]
            model.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
            optimizer.step()
            global_step += 1
            if global_step % 4 == 0:
                print(f"epoch {epoch} step {global_step} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    args = get_args()
    model = CRFlessTokenModel(args.vocab_size, args.num_tags, loss_type=args.loss_type)
    train(args, model, build_dataset(args))

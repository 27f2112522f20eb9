import torch
import torch.nn.functional as F

from compressive import CompressiveTransformer

NUM_TOKENS, SEG_LEN, DIM = 50, 8, 32


def main():
    torch.manual_seed(0)
    model = CompressiveTransformer(NUM_TOKENS, DIM, mem_len=SEG_LEN)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    compress_before = model.attn.compress_mem_fn.conv.weight.detach().clone()
    for step in range(4):
        seq = torch.randint(0, NUM_TOKENS, (2, 5 * SEG_LEN + 1))
        mem = torch.zeros(2, 0, DIM)
        cmem = torch.zeros(2, 0, DIM)
        for start in range(0, 5 * SEG_LEN, SEG_LEN):
            inp = seq[:, start:start + SEG_LEN]
            labels = seq[:, start + 1:start + SEG_LEN + 1]
            logits, mem, cmem, aux_loss = model(inp, mem, cmem)
            lm_loss = F.cross_entropy(logits.reshape(-1, NUM_TOKENS), labels.reshape(-1))
            loss = lm_loss + aux_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"step {step}: lm loss {lm_loss.item():.4f}  aux (reconstruction) loss {aux_loss.item():.4f}")
    changed = not torch.equal(compress_before, model.attn.compress_mem_fn.conv.weight)
    print(f"memory compression network changed: {changed}")


if __name__ == "__main__":
    main()

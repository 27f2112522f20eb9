import argparse
import logging
import random
import warnings

import numpy as np
import torch

from modeling_qa import build_model
from perturb import WordPerturbation, perturbation_mask

warnings.filterwarnings("ignore")
logging.getLogger("transformers").setLevel(logging.ERROR)

CLS_ID, SEP_ID, PAD_ID = 1, 2, 0


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--batch_size", type=int, default=8)
    p.add_argument("--seq_len", type=int, default=40)
    p.add_argument("--steps", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--beta", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=1004)
    return p.parse_args()


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def make_batch(args):
    bs, n = args.batch_size, args.seq_len
    input_ids = torch.randint(3, 200, (bs, n))
    input_ids[:, 0] = CLS_ID
    input_ids[:, 12] = SEP_ID
    input_ids[:, -1] = SEP_ID
    token_type_ids = torch.zeros(bs, n, dtype=torch.long)
    token_type_ids[:, 13:] = 1
    attention_mask = torch.ones(bs, n, dtype=torch.long)
    start = torch.randint(13, n - 6, (bs,))
    end = start + torch.randint(0, 5, (bs,))
    return input_ids, attention_mask, token_type_ids, start, end


def run(args):
    set_seed(args.seed)
    model = build_model()
    perturber = WordPerturbation(model.config.hidden_size)
    params = list(model.parameters()) + list(perturber.parameters())
    optimizer = torch.optim.AdamW(params, lr=args.lr)
    model.train()
    for step in range(args.steps):
        input_ids, attention_mask, token_type_ids, start_positions, end_positions = make_batch(args)
        inputs = {
            "input_ids": input_ids,
            "attention_mask": attention_mask,
            "token_type_ids": token_type_ids,
            "start_positions": start_positions,
            "end_positions": end_positions,
        }
        loss = model(**inputs)[0]

        embeds = model.get_input_embeddings()(input_ids)
        mask = perturbation_mask(input_ids, token_type_ids, attention_mask, (CLS_ID, SEP_ID, PAD_ID))
        perturbed, kld = perturber(embeds, mask)
        inputs["input_ids"] = None
        inputs["inputs_embeds"] = perturbed
        perturb_loss = model(**inputs)[0]

        loss = loss + perturb_loss + args.beta * kld
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        optimizer.zero_grad()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    run(get_args())

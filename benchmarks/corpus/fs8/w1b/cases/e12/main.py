import argparse

import compat  # noqa: F401
import torch
from transformers import CLIPTextConfig, CLIPTextModel

from tokenization import WordTokenizer
from utils import encode_prompts, load_tokens

WORDS = "a photo of an object in the style sculpture painting plant animal toy made with".split()


def build_text_encoder(vocab_size):
    cfg = CLIPTextConfig(
        vocab_size=vocab_size, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=2, max_position_embeddings=16, projection_dim=32,
        pad_token_id=0, bos_token_id=1, eos_token_id=2,
    )
    return CLIPTextModel(cfg)


def load_learned_nodes(node, hidden_size, seed):
    g = torch.Generator().manual_seed(seed)
    return {f"<{node}_l>": torch.randn(hidden_size, generator=g),
            f"<{node}_r>": torch.randn(hidden_size, generator=g)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node", default="v0")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    tokenizer = WordTokenizer(WORDS)
    text_encoder = build_text_encoder(len(tokenizer)).to(args.device)

    data = load_learned_nodes(args.node, text_encoder.config.hidden_size, args.seed)
    load_tokens(text_encoder, tokenizer, data, args.device)

    prompts = [f"a photo of {t}" for t in data] + [f"{' '.join(data)} sculpture"]
    feats = encode_prompts(text_encoder, tokenizer, prompts, 16, args.device)
    feats = torch.nn.functional.normalize(feats, dim=-1)
    print("similarity between children:", (feats[0] @ feats[1]).item())


if __name__ == "__main__":
    main()

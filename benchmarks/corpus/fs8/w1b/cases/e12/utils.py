import torch


def load_tokens(text_encoder, tokenizer, data, device):
    added_tokens = []
    for t_ in data.keys():
        added_tokens.append(t_)
    num_added_tokens = tokenizer.add_tokens(added_tokens)
    text_encoder.resize_token_embeddings(len(tokenizer))
    for token_ in data.keys():
        ref_token = tokenizer.tokenize(token_)
        ref_indx = tokenizer.convert_tokens_to_ids(ref_token)[0]
        embd_cur = data[token_].to(device).to(dtype=torch.float32)
        text_encoder.get_input_embeddings().weight[ref_indx] = embd_cur
    return num_added_tokens


def encode_prompts(text_encoder, tokenizer, prompts, max_length, device):
    ids = torch.tensor(tokenizer(prompts, max_length=max_length), device=device)
    return text_encoder(input_ids=ids).pooler_output
